// Spreadsheets for the contacts tests and bench: written and read with exceljs, as a user's Excel would.
import ExcelJS from 'exceljs';

/** An .xlsx file of `rows` (the first one the header). */
export async function makeXlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Planilha1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A big sheet (telefone, nome, cidade), streamed so making it stays quick. */
export async function makeBigXlsx(count: number, firstPhone = 5511900000000): Promise<Buffer> {
  const { PassThrough } = await import('node:stream');
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Planilha1');
  sheet.addRow(['telefone', 'nome', 'cidade']).commit();
  for (let i = 0; i < count; i++)
    sheet.addRow([String(firstPhone + i), `Pessoa ${i} Silva`, 'Recife']).commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** The rows of the first sheet as text (header included). */
export async function readXlsx(buffer: Buffer | ArrayBuffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const out: string[][] = [];
  sheet?.eachRow((row) => {
    const values = row.values as unknown[];
    out.push(values.slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return out;
}
