import { SragError } from '../../../core/index.ts';

/** Script properties the publisher sets once (Apps Script editor › Project settings › Script properties). */
export const drivePickerPropertyKeys = { apiKey: 'srag.pickerApiKey', cloudProjectNumber: 'srag.cloudProjectNumber' } as const;

/**
 * The file types Add files from Drive offers: those `readDriveFile` can read as text (Google Docs,
 * Sheets and Slides are exported; the others are downloaded as they are).
 */
export const pickableMimeTypes = [
  'application/vnd.google-apps.document', 'application/vnd.google-apps.spreadsheet', 'application/vnd.google-apps.presentation',
  'text/plain', 'text/markdown', 'text/x-markdown', 'text/html', 'text/csv', 'application/json',
];

export interface DrivePickerSettings {
  /** The user's own token for this script (scope drive.file among others); the Picker needs it in the browser. */
  oauthToken: string;
  apiKey: string;
  /** The Cloud project number: files picked are then open to this project's token (drive.file). */
  appId: string;
  mimeTypes: string[];
}

/**
 * What Picker.html needs to show the Google Picker. The add-on reads Drive with the drive.file
 * scope: it may open only the files a user picks here, which is what keeps it off Google's list
 * of restricted scopes (drive.readonly is one). The Picker needs the Cloud project behind the
 * script and an API key of that project; a missing one is named with where to set it.
 */
export function drivePickerSettings(): DrivePickerSettings {
  const properties = PropertiesService.getScriptProperties();
  const apiKey = (properties.getProperty(drivePickerPropertyKeys.apiKey) ?? '').trim();
  const appId = (properties.getProperty(drivePickerPropertyKeys.cloudProjectNumber) ?? '').trim();
  const missing = [!apiKey && drivePickerPropertyKeys.apiKey, !/^\d+$/.test(appId) && drivePickerPropertyKeys.cloudProjectNumber].filter(Boolean);
  if (missing.length) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `Add files from Drive is not set up: the script property ${missing.join(' and ')} is missing`,
      hint: 'whoever deployed srag sets them in the Apps Script editor › Project settings › Script properties: the Cloud project number and an API key for the Google Picker API (see docs/sheets-addon.md)',
    });
  }
  return { oauthToken: ScriptApp.getOAuthToken(), apiKey, appId, mimeTypes: pickableMimeTypes };
}
