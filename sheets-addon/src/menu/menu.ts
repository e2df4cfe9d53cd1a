import { rememberIntent, type SidebarIntent } from '../server/sidebar-state.ts';

/**
 * The add-on menu. onOpen may run in AuthMode.NONE (installed, not yet used in this spreadsheet),
 * where only the menu may be built: it touches no other service.
 */
export function buildMenu(): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Open srag', 'showSidebar')
    .addItem('Settings', 'showSettings')
    .addItem('Predict schema', 'showPredictSchema')
    .addItem('Add files from Drive…', 'menuAddDriveFiles')
    .addSeparator()
    .addItem('Extract all rows', 'menuExtractAll')
    .addItem('Extract selected rows', 'menuExtractSelection')
    .addItem('Stop extraction', 'menuStopExtraction')
    .addSeparator()
    .addItem('Refresh SRAG_ASK queries', 'menuRefreshAskQueries')
    .addToUi();
}

export function openSidebar(intent: SidebarIntent): void {
  if (intent !== 'none') rememberIntent(intent);
  const output = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle('srag');
  SpreadsheetApp.getUi().showSidebar(output);
}

/** The Google Picker in a dialog (Picker.html): the files picked become Documents rows. */
export function openDrivePicker(): void {
  const output = HtmlService.createHtmlOutputFromFile('Picker').setWidth(1051).setHeight(650);
  SpreadsheetApp.getUi().showModalDialog(output, 'Add files from Drive');
}
