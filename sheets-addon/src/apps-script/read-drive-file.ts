import { SragError } from '../../../core/index.ts';
import { TransportFailure } from '../../../openai-wire/index.ts';
import type { RequestLoop } from '../runtime/request-loop.ts';

const googleDocumentTypes: Record<string, string> = {
  'application/vnd.google-apps.document': 'text/plain',
  'application/vnd.google-apps.spreadsheet': 'text/csv',
  'application/vnd.google-apps.presentation': 'text/plain',
};

/**
 * A Drive file's name and text, through the Drive API with the add-on's own token (scope
 * drive.file: files picked in Add files from Drive): Google Docs are exported as plain text,
 * other files downloaded as they are.
 */
export async function readDriveFile(loop: RequestLoop, fileId: string, source: string): Promise<{ name: string; content: string }> {
  const headers = { Authorization: `Bearer ${ScriptApp.getOAuthToken()}` };
  const base = `https://www.googleapis.com/drive/v3/files/${encodeURIComponent(fileId)}`;
  const metadata = JSON.parse(await get(loop, `${base}?fields=name,mimeType&supportsAllDrives=true`, headers, source)) as { name?: string; mimeType?: string };
  const exportType = googleDocumentTypes[metadata.mimeType ?? ''];
  const url = exportType ? `${base}/export?mimeType=${encodeURIComponent(exportType)}` : `${base}?alt=media&supportsAllDrives=true`;
  const content = await get(loop, url, headers, source);
  if (content.includes('\u0000')) {
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${source}: the Drive file "${metadata.name ?? fileId}" is not text`, hint: 'link a Google Doc or a .txt, .md, .html or .json file' });
  }
  return { name: metadata.name ?? fileId, content };
}

async function get(loop: RequestLoop, url: string, headers: Record<string, string>, source: string): Promise<string> {
  let response;
  try {
    response = await loop.send({ url, method: 'GET', headers });
  } catch (error) {
    if (TransportFailure.isInstance(error)) throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${source}: cannot reach Google Drive: ${error.message}` });
    throw error;
  }
  if (response.status === 200) return response.body;
  // The _error cell shows the message only, so what to do goes in the message.
  const notPicked = response.status === 404 || response.status === 403;
  throw new SragError({
    code: 'DOCUMENT_UNREADABLE',
    message: `${source}: Google Drive answered ${response.status} for the linked file${notPicked ? '; the add-on may open only files picked with Extensions › srag › Add files from Drive, so pick it there' : ''}`,
    hint: notPicked ? 'check too that the link is right and that you can open the file' : undefined,
  });
}
