import type { ChatRequest } from './chat-request.ts';
import { contentReply, type Reply } from './reply.ts';

/** A cell as the answer shows it: JSON strings unquoted, everything else as written. */
function cellText(cell: string): string {
  const trimmed = cell.trim();
  if (trimmed.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // not JSON: show it as written
    }
  }
  return trimmed;
}

/** Splits one pipe-table line, tolerating Markdown's outer pipes. */
function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|')) text = text.slice(0, -1);
  return text.split(' | ').map(cellText);
}

/**
 * Reads the rows under "Result (N rows):" (a header line, then one line per row) and answers
 * shortly: the single value, or the rows joined ("Paris: 4; Rome: 3"). As a careful model does, a
 * single value computed over a column the prompt's coverage calls incomplete says what it rests
 * on: "212.5 (among the 44 hotels that state price_per_night)".
 */
export function respondAnswer(request: ChatRequest): Reply {
  const prompt = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  const heading = /^Result \((\d+)[^)]*\):[ \t]*$/m.exec(prompt);
  if (!heading) return contentReply('I could not find the answer.');
  const lines = prompt
    .slice(heading.index + heading[0].length)
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^[\s|:-]+$/.test(line) && !/^```/.test(line.trim()));
  const rows = lines.slice(1).map(splitRow);
  if (rows.length === 0) return contentReply('No document matches the question.');
  if (rows.length === 1 && rows[0]!.length === 1) return contentReply(`${rows[0]![0]!}${restsOn(prompt.slice(0, heading.index))}`);
  return contentReply(rows.map((cells) => cells.join(': ')).join('; '));
}

/** " (among the 44 hotels that state price_per_night)" when the coverage names an aggregated column with values missing or dropped. */
function restsOn(promptHead: string): string {
  const incomplete = /^(\w+): computed over (\d+) of the \d+ (.+?) the query selects;.*(?:do not state it|dropped)/m.exec(promptHead);
  return incomplete ? ` (among the ${incomplete[2]} ${incomplete[3]} that state ${incomplete[1]})` : '';
}
