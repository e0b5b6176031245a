// Spreadsheets of contacts (spec 2 §5 Import, §7 export-contacts) with exceljs: a 100,000-row sheet reads
// in about 2 s (a big one on a thread of its own); the export uses its streaming writer, which never builds the
// whole workbook in memory.
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type ExcelJS from 'exceljs';
import type { AudienceAnalysis, ImportPerson } from '../../../shared/contract/contacts';
import { labels, messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { DEFAULT_TIME_ZONE, isTimeZone, localDay } from '../../../shared/rules/dashboard-interval';
import { AppError } from '../../http/errors';

/** The most data rows one spreadsheet may have. */
export const MAX_IMPORT_ROWS = 200_000;
/** Invalid rows listed one by one; past this only their count is told. */
const MAX_INVALID_LISTED = 500;
export const PHONE_COLUMN = 'telefone';

/** A header cell as a variable name: trimmed, lower case ({nome}, {nome:first}). */
export const columnName = (raw: string) => raw.trim().toLowerCase().replace(/\s+/g, '_').slice(0, 100);
const plain = (name: string) => name.normalize('NFD').replace(/\p{Diacritic}/gu, '');

/** A cell's text, whatever Excel stored: numbers, dates, rich text, formulas, hyperlinks. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value)
    return value.richText
      .map((r) => r.text)
      .join('')
      .trim();
  if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
  if ('text' in value) return String(value.text).trim();
  if ('error' in value) return '';
  return '';
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** A row of the first sheet: its number and its cells' values (index 1 on), as exceljs reads them. */
type SheetRow = [number, ExcelJS.CellValue[]];

/** Rows handed over at a time: the analysis of a batch is short, and the server serves others between two. */
const ROWS_PER_BATCH = 1_000;
/** A sheet this big is read on a thread of its own (issue 37); a smaller one reads in milliseconds. */
const READ_APART_FROM_BYTES = 256 * 1024;

/**
 * A thread of its own that reads the first sheet and posts its rows in batches. exceljs parses a sheet's XML in one
 * go: 200,000 rows keep a thread busy for seconds, which on the server's own would keep every request waiting.
 */
const SHEET_READER = `
const { parentPort, workerData } = require('node:worker_threads');
const ExcelJS = require(workerData.exceljs);
(async () => {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(workerData.file));
  } catch {
    return parentPort.postMessage({ unreadable: true });
  }
  let rows = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push([row.number, row.values]);
    if (rows.length === workerData.batch) {
      parentPort.postMessage({ rows });
      rows = [];
    }
  });
  parentPort.postMessage({ rows, done: true });
})();
`;

/**
 * exceljs and its zip libraries take about half a second of CPU to load: loaded at the first sheet, not at
 * every server start (the tests start dozens of servers, and a restart after a crash serves sooner).
 */
const excel = async () => (await import('exceljs')).default;

/** The first sheet's rows, batch by batch: a big sheet read on a thread of its own, a small one here. */
async function* sheetRows(buffer: Buffer): AsyncGenerator<SheetRow[]> {
  if (buffer.length < READ_APART_FROM_BYTES) {
    const workbook = new (await excel()).Workbook();
    try {
      await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    } catch {
      throw new AppError(texts.importUnreadable);
    }
    const rows: SheetRow[] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      rows.push([row.number, row.values as ExcelJS.CellValue[]]);
    });
    yield rows;
    return;
  }
  type Posted = { rows?: SheetRow[]; done?: boolean; unreadable?: boolean };
  const worker = new Worker(SHEET_READER, {
    eval: true,
    workerData: {
      exceljs: createRequire(import.meta.url).resolve('exceljs'),
      file: new Uint8Array(buffer),
      batch: ROWS_PER_BATCH,
    },
  });
  const posted: (Posted | Error)[] = [];
  let wake = () => {};
  const arrived = (m: Posted | Error) => {
    posted.push(m);
    wake();
  };
  worker.on('message', arrived);
  worker.on('error', arrived);
  // A normal end comes after its last batch; any other is a failure (its 'error' said why).
  worker.on('exit', (code) => {
    if (code !== 0) arrived(new Error(`sheet reader ended (${code})`));
  });
  try {
    for (;;) {
      while (!posted.length) await new Promise<void>((resolve) => (wake = resolve));
      const m = posted.shift() as Posted | Error;
      if (m instanceof Error) throw m;
      if (m.unreadable) throw new AppError(texts.importUnreadable);
      yield m.rows ?? [];
      if (m.done) return;
    }
  } finally {
    void worker.terminate();
  }
}

/**
 * The analysis of an uploaded spreadsheet: the first sheet, its first row the header. Nothing is stored;
 * the answer is what the import dialog shows and what import-contacts then receives.
 */
export async function analyseContactsSheet(buffer: Buffer, filename = ''): Promise<AudienceAnalysis> {
  if (buffer.length < 4 || !buffer.subarray(0, 4).equals(ZIP_MAGIC)) {
    // A file named .xlsx that is no spreadsheet inside is a damaged sheet, not a wrong type.
    throw new AppError(/\.xlsx$/i.test(filename) ? texts.importUnreadable : texts.importNotXlsx);
  }
  let header: (string | null)[] | null = null;
  let phoneIndex = -1;
  const valid: ImportPerson[] = [];
  const invalid: AudienceAnalysis['invalid'] = [];
  let invalidCount = 0;
  let total = 0;
  const seen = new Map<string, number>();
  const refuse = (line: number, reason: string) => {
    invalidCount++;
    if (invalid.length < MAX_INVALID_LISTED) invalid.push({ line, reason });
  };

  const analyse = (number: number, values: ExcelJS.CellValue[]) => {
    if (!header) {
      const names = new Set<string>();
      header = Array.from(values, (v) => {
        const name = columnName(cellText(v ?? null));
        if (!name || names.has(name)) return null;
        names.add(name);
        return name;
      });
      phoneIndex = header.findIndex((h) => h !== null && plain(h) === PHONE_COLUMN);
      if (phoneIndex < 0) throw new AppError(texts.importPhoneColumnMissing);
      header[phoneIndex] = PHONE_COLUMN;
      return;
    }
    const cells = header.map((_, i) => cellText(values[i] ?? null));
    if (cells.every((c) => c === '')) return;
    total++;
    if (total > MAX_IMPORT_ROWS) throw new AppError(texts.importTooManyRows(MAX_IMPORT_ROWS));
    const line = number;
    const raw = cells[phoneIndex] ?? '';
    if (!raw) {
      refuse(line, texts.importMissingPhone);
      return;
    }
    const phone = /^[0-9]{10,15}$/.test(raw) ? normalizePhone(`+${raw}`) : null;
    if (!phone) {
      refuse(line, texts.importInvalidPhone);
      return;
    }
    const first = seen.get(phone);
    if (first !== undefined) {
      refuse(line, texts.importDuplicatePhone(first));
      return;
    }
    seen.set(phone, line);
    const person: ImportPerson = { telefone: phone };
    header.forEach((name, i) => {
      if (name && i !== phoneIndex) person[name] = (cells[i] ?? '').slice(0, 4000);
    });
    valid.push(person);
  };
  // The first sheet only; between two batches the event loop serves the rest of the server.
  for await (const rows of sheetRows(buffer)) {
    for (const [number, values] of rows) analyse(number, values);
    await new Promise((resolve) => setImmediate(resolve));
  }

  // Assigned in the row callback, which TypeScript's narrowing does not follow.
  const columns = header as (string | null)[] | null;
  if (!columns || total === 0) throw new AppError(texts.importEmpty);
  const props = [PHONE_COLUMN, ...columns.filter((h): h is string => h !== null && h !== PHONE_COLUMN)];
  let message = valid.length ? texts.importAnalysis(valid.length, total) : texts.importNoValid;
  if (invalidCount) message += ` ${texts.importInvalidLines}: ${invalidCount}.`;
  return { valid, header: props, total_count: total, invalid, message };
}

export interface ExportRow {
  name: string;
  overrideName: string | null;
  phone: string;
  tags: string[];
  data: Record<string, unknown>;
  ignore: boolean;
  createdAt: Date;
}

const FIXED_COLUMNS: readonly string[] = texts.contactsSheetColumns;
/**
 * Dates in a sheet, as its reader's clock shows them: in the account's time zone (a business in Manaus or
 * Noronha reads its own hours), whatever the server's zone.
 */
export function sheetDateTime(timeZone: string, timeStyle: 'short' | 'medium' = 'short') {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const format = new Intl.DateTimeFormat('pt-BR', { timeZone: zone, dateStyle: 'short', timeStyle });
  return (d: Date | null) => (d ? format.format(d) : '');
}

/** A sheet's file name date: the account's local day. */
export const sheetDay = (timeZone: string) =>
  localDay(new Date(), isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE);
const variableText = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** The export: the fixed columns, then every variable any contact has (so the file imports back). */
export async function writeContactsSheet(
  rows: ExportRow[],
  tagNames: Map<string, string>,
  timeZone: string,
): Promise<Buffer> {
  const dateTime = sheetDateTime(timeZone);
  const variables: string[] = [];
  const known = new Set(FIXED_COLUMNS);
  for (const r of rows)
    for (const key of Object.keys(r.data))
      if (!known.has(key)) {
        known.add(key);
        variables.push(key);
      }

  // Made row by row as the writer takes them: a 100,000-contact export never holds a second copy.
  const lines = (function* () {
    for (const r of rows)
      yield [
        r.phone,
        r.overrideName || r.name,
        r.tags
          .map((t) => tagNames.get(t))
          .filter(Boolean)
          .join(', '),
        dateTime(r.createdAt),
        r.ignore ? texts.sheetYes : texts.sheetNo,
        ...variables.map((k) => variableText(r.data[k])),
      ];
  })();
  return writeSheet(labels.common.contacts, [...FIXED_COLUMNS, ...variables], lines);
}

/** One sheet, header and rows, as an xlsx file: exceljs's streaming writer (the campaign report uses it too). */
export async function writeSheet(name: string, header: string[], rows: Iterable<unknown[]>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });
  const workbook = new (await excel()).stream.xlsx.WorkbookWriter({
    stream: sink,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet(name);
  sheet.addRow(header).commit();
  for (const row of rows) sheet.addRow(row).commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}
