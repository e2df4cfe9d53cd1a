/** A document as coverage notes and commands name it: its file name, without the directories. */
export function documentName(source: string): string {
  return source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
}
