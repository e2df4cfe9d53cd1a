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
