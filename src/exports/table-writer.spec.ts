import ExcelJS from 'exceljs';
import { EventEmitter } from 'events';
import { Writable } from 'stream';
import { sheetInput } from './table-writer';

/**
 * The XLSX writer waits on the stream where exceljs keeps a sheet's XML for the compressor (its own writes ignore
 * back-pressure). This fails when an exceljs upgrade moves that stream, instead of the wait silently stopping.
 */
describe('sheetInput', () => {
  it("finds the stream a sheet's rows wait in, and it asks writers to wait once it holds more than its buffer", async () => {
    const out = new Writable({ write: (_chunk, _encoding, done) => done() });
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    const sheet = book.addWorksheet('Rows');
    sheet.addRow(['header']).commit();
    const input = sheetInput(sheet);
    expect(input).toBeInstanceOf(EventEmitter);
    expect(input!._writableState?.needDrain).toBe(false);
    // Synchronous rows (no event loop turn for the compressor): well past the 64 KB exceljs hands on at once.
    for (let i = 0; i < 5000; i++) sheet.addRow([i, `row ${i} ${'x'.repeat(40)}`]).commit();
    expect(input!._writableState?.needDrain).toBe(true);
    sheet.commit();
    await book.commit();
  });

  it('finds nothing in an object that is not an exceljs sheet', () => {
    expect(sheetInput({})).toBeUndefined();
    expect(sheetInput({ stream: { pipes: [{}] } })).toBeUndefined();
  });
});
