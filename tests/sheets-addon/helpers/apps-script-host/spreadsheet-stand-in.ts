/**
 * An in-memory Google Spreadsheet with the slice of SpreadsheetApp the add-on uses. Values behave
 * as in Sheets where it matters: writing a string that looks like a number, a date or a boolean
 * stores that type unless the cell is formatted as plain text ('@'); a date-formatted number reads
 * back as a Date at midnight in the spreadsheet's time zone; a custom function may only read.
 */
export type CellValue = string | number | boolean | Date;

const serialOffset = 25_569;

export interface ExecutionView {
  /** Custom functions run without authorization: Spreadsheet is read-only there. */
  readOnly: boolean;
}

export class SheetData {
  values: CellValue[][] = [];
  notes: string[][] = [];
  formats: string[][] = [];
  /** A cell's formula; its value is what a test puts in `values` (the stand-in computes nothing). */
  formulas: string[][] = [];
  /** Every formula a script wrote, in order: re-entering a formula is how Sheets is made to recalculate it. */
  formulaWrites: Array<{ row: number; column: number; formula: string }> = [];
  frozenRows = 0;
  hiddenColumns = new Set<number>();

  constructor(public name: string) {}

  get lastRow(): number {
    let last = 0;
    for (const grid of [this.values, this.formulas] as unknown[][][]) {
      for (let row = grid.length - 1; row >= last; row -= 1) if (grid[row]?.some((cell) => cell !== '' && cell !== undefined)) last = row + 1;
    }
    return last;
  }

  get lastColumn(): number {
    let last = 0;
    for (const row of [...this.values, ...this.formulas] as unknown[][]) {
      if (!row) continue;
      for (let column = row.length - 1; column >= 0; column -= 1) {
        if (row[column] !== '' && row[column] !== undefined) {
          last = Math.max(last, column + 1);
          break;
        }
      }
    }
    return last;
  }

  cell(row: number, column: number): CellValue {
    return this.values[row - 1]?.[column - 1] ?? '';
  }

  format(row: number, column: number): string {
    return this.formats[row - 1]?.[column - 1] ?? '';
  }

  set(kind: 'values' | 'notes' | 'formats' | 'formulas', row: number, column: number, value: unknown): void {
    const grid = this[kind] as unknown[][];
    while (grid.length < row) grid.push([]);
    const line = grid[row - 1]!;
    while (line.length < column) line.push('');
    line[column - 1] = value;
  }
}

export class SpreadsheetData {
  sheets: SheetData[] = [];
  timeZone = 'Europe/Berlin';
  activeRange: { sheet: string; row: number; column: number; rows: number; columns: number } | undefined;
  toasts: string[] = [];
  sidebar: { title: string; html: string } | undefined;
  dialogs: Array<{ title: string; html: string; width?: number; height?: number }> = [];
  menus: Array<{ name: string; items: Array<[string, string]> }> = [];

  sheet(name: string): SheetData | undefined {
    return this.sheets.find((sheet) => sheet.name === name);
  }

  addSheet(name: string): SheetData {
    if (this.sheet(name)) throw new Error(`A sheet with the name "${name}" already exists. Please enter another name.`);
    const sheet = new SheetData(name);
    this.sheets.push(sheet);
    return sheet;
  }

  /** Midnight of an ISO date in the spreadsheet's zone, as Sheets hands a date cell to a script. */
  dateAtMidnight(serial: number): Date {
    const utc = Math.round((serial - serialOffset) * 86_400_000);
    const guess = new Date(utc);
    return new Date(utc - zoneOffsetMilliseconds(this.timeZone, guess));
  }

  serialOf(date: Date): number {
    return (date.getTime() + zoneOffsetMilliseconds(this.timeZone, date)) / 86_400_000 + serialOffset;
  }
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
export function zoneOffsetMilliseconds(timeZone: string, instant: Date): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    .formatToParts(instant).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

function isDateFormat(format: string): boolean {
  return /y{2,4}|d{1,2}|m{1,2}.*d/i.test(format) && format !== '@';
}

function permissionError(method: string): Error {
  const error = new Error(`You do not have permission to call ${method}`);
  error.name = 'Exception';
  return error;
}

export class SpreadsheetAppStandIn {
  constructor(private readonly data: SpreadsheetData, private readonly view: ExecutionView) {}

  getActiveSpreadsheet(): SpreadsheetStandIn {
    return new SpreadsheetStandIn(this.data, this.view);
  }

  getActive(): SpreadsheetStandIn {
    return this.getActiveSpreadsheet();
  }

  flush(): void {}

  getUi(): UiStandIn {
    if (this.view.readOnly) throw permissionError('SpreadsheetApp.getUi');
    return new UiStandIn(this.data);
  }
}

export class SpreadsheetStandIn {
  constructor(private readonly data: SpreadsheetData, private readonly view: ExecutionView) {}

  getId(): string {
    return 'spreadsheet-1';
  }

  getName(): string {
    return 'srag test spreadsheet';
  }

  getSpreadsheetTimeZone(): string {
    return this.data.timeZone;
  }

  getSheetByName(name: string): SheetStandIn | null {
    const sheet = this.data.sheet(name);
    return sheet ? new SheetStandIn(this.data, sheet, this.view) : null;
  }

  getSheets(): SheetStandIn[] {
    return this.data.sheets.map((sheet) => new SheetStandIn(this.data, sheet, this.view));
  }

  insertSheet(name: string): SheetStandIn {
    if (this.view.readOnly) throw permissionError('Spreadsheet.insertSheet');
    return new SheetStandIn(this.data, this.data.addSheet(name), this.view);
  }

  getActiveRange(): RangeStandIn | null {
    const active = this.data.activeRange;
    if (!active) return null;
    const sheet = this.data.sheet(active.sheet)!;
    return new RangeStandIn(this.data, sheet, this.view, active.row, active.column, active.rows, active.columns);
  }

  getActiveSheet(): SheetStandIn {
    const name = this.data.activeRange?.sheet ?? this.data.sheets[0]!.name;
    return new SheetStandIn(this.data, this.data.sheet(name)!, this.view);
  }

  toast(message: string): void {
    this.data.toasts.push(String(message));
  }
}

export class SheetStandIn {
  constructor(private readonly data: SpreadsheetData, readonly sheet: SheetData, private readonly view: ExecutionView) {}

  getName(): string {
    return this.sheet.name;
  }

  getLastRow(): number {
    return this.sheet.lastRow;
  }

  getLastColumn(): number {
    return this.sheet.lastColumn;
  }

  getMaxRows(): number {
    return Math.max(1000, this.sheet.lastRow);
  }

  getMaxColumns(): number {
    return Math.max(26, this.sheet.lastColumn);
  }

  getRange(rowOrA1: number | string, column?: number, rows?: number, columns?: number): RangeStandIn {
    if (typeof rowOrA1 === 'string') {
      const parsed = parseA1(rowOrA1);
      return new RangeStandIn(this.data, this.sheet, this.view, parsed.row, parsed.column, parsed.rows ?? Math.max(1, this.sheet.lastRow - parsed.row + 1), parsed.columns);
    }
    if (!Number.isInteger(rowOrA1) || rowOrA1 < 1 || !Number.isInteger(column) || column! < 1) throw new Error(`Exception: The starting row or column of the range is out of bounds (${rowOrA1}, ${column})`);
    if ((rows ?? 1) < 1 || (columns ?? 1) < 1) throw new Error('Exception: The number of rows or columns in the range must be at least 1.');
    return new RangeStandIn(this.data, this.sheet, this.view, rowOrA1, column!, rows ?? 1, columns ?? 1);
  }

  getDataRange(): RangeStandIn {
    return new RangeStandIn(this.data, this.sheet, this.view, 1, 1, Math.max(1, this.sheet.lastRow), Math.max(1, this.sheet.lastColumn));
  }

  clear(): SheetStandIn {
    this.requireWrite('Sheet.clear');
    this.sheet.values = [];
    this.sheet.notes = [];
    this.sheet.formats = [];
    return this;
  }

  setFrozenRows(rows: number): void {
    this.requireWrite('Sheet.setFrozenRows');
    this.sheet.frozenRows = rows;
  }

  hideColumns(column: number, count = 1): void {
    this.requireWrite('Sheet.hideColumns');
    for (let index = 0; index < count; index += 1) this.sheet.hiddenColumns.add(column + index);
  }

  appendRow(values: CellValue[]): SheetStandIn {
    this.getRange(this.sheet.lastRow + 1, 1, 1, values.length).setValues([values]);
    return this;
  }

  setColumnWidth(): SheetStandIn {
    return this;
  }

  private requireWrite(method: string): void {
    if (this.view.readOnly) throw permissionError(method);
  }
}

function parseA1(a1: string): { row: number; column: number; rows?: number; columns: number } {
  const match = /^(?:[^!]+!)?([A-Z]+)(\d+)(?::([A-Z]+)(\d+)?)?$/i.exec(a1.trim());
  if (!match) throw new Error(`Exception: Range not found: ${a1}`);
  const columnNumber = (letters: string) => [...letters.toUpperCase()].reduce((total, letter) => total * 26 + letter.charCodeAt(0) - 64, 0);
  const column = columnNumber(match[1]!);
  const row = Number(match[2]);
  const endColumn = match[3] ? columnNumber(match[3]) : column;
  return { row, column, rows: match[4] ? Number(match[4]) - row + 1 : match[3] ? undefined : 1, columns: endColumn - column + 1 };
}

export class RangeStandIn {
  constructor(
    private readonly data: SpreadsheetData,
    private readonly sheet: SheetData,
    private readonly view: ExecutionView,
    private readonly row: number,
    private readonly column: number,
    private readonly rows: number,
    private readonly columns: number,
  ) {}

  getRow(): number { return this.row; }
  getColumn(): number { return this.column; }
  getNumRows(): number { return this.rows; }
  getNumColumns(): number { return this.columns; }
  getLastRow(): number { return this.row + this.rows - 1; }
  getSheet(): SheetStandIn { return new SheetStandIn(this.data, this.sheet, this.view); }
  getA1Notation(): string { return `R${this.row}C${this.column}:R${this.getLastRow()}C${this.column + this.columns - 1}`; }

  getValues(): CellValue[][] {
    return this.grid((row, column) => {
      const value = this.sheet.cell(row, column);
      if (typeof value === 'number' && isDateFormat(this.sheet.format(row, column))) return this.data.dateAtMidnight(value);
      return value;
    });
  }

  getValue(): CellValue {
    return this.getValues()[0]![0]!;
  }

  getDisplayValues(): string[][] {
    return this.getValues().map((row) => row.map((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value))));
  }

  getNotes(): string[][] {
    return this.grid((row, column) => this.sheet.notes[row - 1]?.[column - 1] ?? '');
  }

  getFormulas(): string[][] {
    return this.grid((row, column) => this.sheet.formulas[row - 1]?.[column - 1] ?? '');
  }

  getFormula(): string {
    return this.getFormulas()[0]![0]!;
  }

  setFormula(formula: string): RangeStandIn {
    this.requireWrite('Range.setFormula');
    return this.setFormulas(this.grid(() => formula));
  }

  setFormulas(formulas: string[][]): RangeStandIn {
    this.requireWrite('Range.setFormulas');
    formulas.forEach((line, rowOffset) => line.forEach((formula, columnOffset) => {
      const row = this.row + rowOffset;
      const column = this.column + columnOffset;
      this.sheet.set('formulas', row, column, String(formula ?? ''));
      this.sheet.formulaWrites.push({ row, column, formula: String(formula ?? '') });
    }));
    return this;
  }

  getNumberFormats(): string[][] {
    return this.grid((row, column) => this.sheet.format(row, column) || 'General');
  }

  setValues(values: CellValue[][]): RangeStandIn {
    this.requireWrite('Range.setValues');
    if (!Array.isArray(values) || values.length !== this.rows || values.some((line) => !Array.isArray(line) || line.length !== this.columns)) {
      throw new Error(`Exception: The number of rows or columns in the data does not match the range. The data has ${values?.length} rows but the range has ${this.rows}.`);
    }
    values.forEach((line, rowOffset) => line.forEach((value, columnOffset) => this.store(this.row + rowOffset, this.column + columnOffset, value)));
    return this;
  }

  setValue(value: CellValue): RangeStandIn {
    this.requireWrite('Range.setValue');
    for (let row = 0; row < this.rows; row += 1) for (let column = 0; column < this.columns; column += 1) this.store(this.row + row, this.column + column, value);
    return this;
  }

  setNotes(notes: string[][]): RangeStandIn {
    this.requireWrite('Range.setNotes');
    notes.forEach((line, rowOffset) => line.forEach((note, columnOffset) => this.sheet.set('notes', this.row + rowOffset, this.column + columnOffset, String(note ?? ''))));
    return this;
  }

  setNote(note: string): RangeStandIn {
    return this.setNotes(this.grid(() => note));
  }

  setNumberFormat(format: string): RangeStandIn {
    this.requireWrite('Range.setNumberFormat');
    return this.setNumberFormats(this.grid(() => format));
  }

  setNumberFormats(formats: string[][]): RangeStandIn {
    this.requireWrite('Range.setNumberFormats');
    formats.forEach((line, rowOffset) => line.forEach((format, columnOffset) => this.sheet.set('formats', this.row + rowOffset, this.column + columnOffset, format === 'General' ? '' : format)));
    return this;
  }

  clearContent(): RangeStandIn {
    return this.setValue('');
  }

  setFontWeight(): RangeStandIn { this.requireWrite('Range.setFontWeight'); return this; }
  setWrap(): RangeStandIn { this.requireWrite('Range.setWrap'); return this; }
  setVerticalAlignment(): RangeStandIn { this.requireWrite('Range.setVerticalAlignment'); return this; }
  setBackground(): RangeStandIn { this.requireWrite('Range.setBackground'); return this; }

  private store(row: number, column: number, value: CellValue): void {
    if (typeof value === 'string' && value.length > 50_000) throw new Error('Exception: Your input contains more than the maximum of 50000 characters in a single cell.');
    const format = this.sheet.format(row, column);
    if (value instanceof Date) {
      this.sheet.set('values', row, column, this.data.serialOf(value));
      if (!isDateFormat(format)) this.sheet.set('formats', row, column, 'yyyy-mm-dd');
      return;
    }
    if (typeof value === 'string' && format !== '@') {
      // Sheets reads a written string as if it were typed.
      if (/^-?\d+(\.\d+)?$/.test(value.trim())) return this.sheet.set('values', row, column, Number(value));
      if (/^(true|false)$/i.test(value.trim())) return this.sheet.set('values', row, column, value.trim().toLowerCase() === 'true');
      const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
      if (date) {
        this.sheet.set('values', row, column, Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) / 86_400_000 + serialOffset);
        if (!isDateFormat(format)) this.sheet.set('formats', row, column, 'yyyy-mm-dd');
        return;
      }
    }
    this.sheet.set('values', row, column, value ?? '');
  }

  private grid<T>(cell: (row: number, column: number) => T): T[][] {
    return Array.from({ length: this.rows }, (_, rowOffset) => Array.from({ length: this.columns }, (__, columnOffset) => cell(this.row + rowOffset, this.column + columnOffset)));
  }

  private requireWrite(method: string): void {
    if (this.view.readOnly) throw permissionError(method);
  }
}

export class UiStandIn {
  constructor(private readonly data: SpreadsheetData) {}

  createAddonMenu(): MenuStandIn {
    return new MenuStandIn(this.data, 'Extensions › srag');
  }

  createMenu(name: string): MenuStandIn {
    return new MenuStandIn(this.data, name);
  }

  showSidebar(output: { title: string; html: string }): void {
    this.data.sidebar = { title: output.title, html: output.html };
  }

  showModalDialog(output: { html: string; width?: number; height?: number }, title: string): void {
    this.data.dialogs.push({ title: String(title), html: output.html, width: output.width, height: output.height });
  }

  alert(): void {}
}

export class MenuStandIn {
  private readonly items: Array<[string, string]> = [];

  constructor(private readonly data: SpreadsheetData, private readonly name: string) {}

  addItem(caption: string, functionName: string): MenuStandIn {
    this.items.push([caption, functionName]);
    return this;
  }

  addSeparator(): MenuStandIn {
    return this;
  }

  addToUi(): void {
    this.data.menus.push({ name: this.name, items: this.items });
  }
}
