import { Decimal, toMoney } from '../common/values/money';
import { countryName } from './invoice-content.rules';
import type { InvoiceLineData } from './invoice.entity';

/** What the PDF shows: the invoice as stored, with its order code and the number it refers to. */
export interface InvoiceDocument {
  number: string;
  orderCode: string;
  date: string;
  isCancellation: boolean;
  refersNumber: string | null;
  currency: string;
  texts: Record<string, string | null>;
  lines: readonly InvoiceLineData[];
}

const MARGIN = 50;
const PAGE_BOTTOM_RESERVE = 70;
/** Column x positions and widths of the line table: #, description, tax rate, tax, gross. */
const COLS = { no: 50, desc: 78, rate: 330, tax: 400, gross: 475, end: 545 };

/** A tax summary row: per rate, the net, tax and gross totals. */
export interface TaxSummaryRow {
  rate: string;
  name: string;
  net: string;
  tax: string;
  gross: string;
}

/** Sums of the lines per tax rate (and name), ordered by rate. */
export function taxSummary(lines: readonly InvoiceLineData[]): TaxSummaryRow[] {
  const by = new Map<string, { rate: Decimal; name: string; tax: Decimal; gross: Decimal }>();
  for (const l of lines) {
    const key = `${l.tax_rate}|${l.tax_name}`;
    const row = by.get(key) ?? {
      rate: new Decimal(l.tax_rate),
      name: l.tax_name,
      tax: new Decimal(0),
      gross: new Decimal(0),
    };
    row.tax = row.tax.plus(l.tax_value);
    row.gross = row.gross.plus(l.gross_value);
    by.set(key, row);
  }
  return [...by.values()]
    .sort((a, b) => a.rate.cmp(b.rate))
    .map((r) => ({
      rate: toMoney(r.rate),
      name: r.name,
      net: toMoney(r.gross.minus(r.tax)),
      tax: toMoney(r.tax),
      gross: toMoney(r.gross),
    }));
}

/** The invoice total (sum of the gross values). */
export function invoiceTotal(lines: readonly InvoiceLineData[]): string {
  return toMoney(lines.reduce((sum, l) => sum.plus(l.gross_value), new Decimal(0)));
}

const money = (v: string, currency: string) => `${currency} ${v}`;

/**
 * Renders an invoice as an A4 PDF with pdfkit (compat §3.24 `download`; README "Invoices"): sender and recipient,
 * number, date, order code (and the canceled invoice's number for a cancellation), the introductory text, the line
 * table (tax rate, tax and gross per line; its header repeated on every page, rows never split across pages), a
 * tax summary per rate, the totals, the payment text, the additional text, and on every page the footer text and
 * "Page i of n".
 * @returns the PDF bytes
 */
export async function renderInvoicePdf(inv: InvoiceDocument): Promise<Buffer> {
  // Loaded on first use: pdfkit (about 20 MB resident) stays out of a worker that renders no invoice.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Invoice ${inv.number}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const t = (k: string) => inv.texts[k] ?? '';
  const bottom = () => doc.page.height - MARGIN - PAGE_BOTTOM_RESERVE;

  // Sender (top right) and recipient (left).
  const sender = [
    t('invoice_from_name'),
    t('invoice_from'),
    [t('invoice_from_zipcode'), t('invoice_from_city')].filter(Boolean).join(' '),
    countryName(t('invoice_from_country')),
    t('invoice_from_tax_id') ? `Tax ID: ${t('invoice_from_tax_id')}` : '',
    t('invoice_from_vat_id') ? `VAT ID: ${t('invoice_from_vat_id')}` : '',
  ].filter((x) => x !== '');
  doc.font('Helvetica').fontSize(9).text(sender.join('\n'), 330, MARGIN, { width: 215 });
  const recipient = [t('invoice_to'), t('invoice_to_vat_id') ? `VAT ID: ${t('invoice_to_vat_id')}` : '']
    .filter((x) => x !== '')
    .join('\n');
  doc.fontSize(10).text(recipient || ' ', MARGIN, 150, { width: 250 });

  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(inv.isCancellation ? 'Cancellation' : 'Invoice', MARGIN, 250);
  doc.font('Helvetica').fontSize(10);
  const meta = [
    `Invoice number: ${inv.number}`,
    `Invoice date: ${inv.date}`,
    `Order code: ${inv.orderCode}`,
    ...(inv.refersNumber ? [`Cancellation of invoice: ${inv.refersNumber}`] : []),
    ...(t('internal_reference') ? [`Your reference: ${t('internal_reference')}`] : []),
  ];
  doc.text(meta.join('\n'), MARGIN, doc.y + 6);
  if (t('introductory_text')) doc.moveDown().text(t('introductory_text'), MARGIN, doc.y, { width: 495 });
  doc.moveDown();

  const header = () => {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('#', COLS.no, y, { width: 25 });
    doc.text('Description', COLS.desc, y, { width: COLS.rate - COLS.desc - 8 });
    doc.text('Tax rate', COLS.rate, y, { width: COLS.tax - COLS.rate - 6, align: 'right' });
    doc.text('Tax', COLS.tax, y, { width: COLS.gross - COLS.tax - 6, align: 'right' });
    doc.text('Amount', COLS.gross, y, { width: COLS.end - COLS.gross, align: 'right' });
    doc
      .moveTo(MARGIN, doc.y + 2)
      .lineTo(COLS.end, doc.y + 2)
      .stroke();
    doc.y += 6;
    doc.font('Helvetica').fontSize(9);
  };
  header();
  for (const line of inv.lines) {
    const desc = [
      line.description,
      ...(line.attendee_name ? [`Attendee: ${line.attendee_name}`] : []),
      ...(line.event_date_from && line.item !== null
        ? [`Date: ${line.event_date_from.slice(0, 16).replace('T', ' ')} UTC`]
        : []),
    ].join('\n');
    const height = doc.heightOfString(desc, { width: COLS.rate - COLS.desc - 8 }) + 4;
    if (doc.y + height > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
      doc.font('Helvetica').fontSize(9).text(`Invoice ${inv.number} (continued)`, MARGIN, MARGIN);
      doc.moveDown(0.5);
      header();
    }
    const y = doc.y;
    doc.text(String(line.position), COLS.no, y, { width: 25 });
    doc.text(`${line.tax_rate} %`, COLS.rate, y, { width: COLS.tax - COLS.rate - 6, align: 'right' });
    doc.text(line.tax_value, COLS.tax, y, { width: COLS.gross - COLS.tax - 6, align: 'right' });
    doc.text(money(line.gross_value, inv.currency), COLS.gross, y, {
      width: COLS.end - COLS.gross,
      align: 'right',
    });
    doc.text(desc, COLS.desc, y, { width: COLS.rate - COLS.desc - 8 });
    doc.y = y + height;
  }

  const summary = taxSummary(inv.lines);
  const needed = 40 + 14 * (summary.length + 4);
  if (doc.y + needed > bottom()) {
    doc.addPage();
    doc.y = MARGIN;
  }
  doc.moveTo(MARGIN, doc.y).lineTo(COLS.end, doc.y).stroke();
  doc.y += 6;
  doc.font('Helvetica-Bold').fontSize(10);
  doc.text(`Total: ${money(invoiceTotal(inv.lines), inv.currency)}`, COLS.rate - 100, doc.y, {
    width: COLS.end - COLS.rate + 100,
    align: 'right',
  });
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(9).text('Tax summary', MARGIN, doc.y);
  const row = (cells: string[]) => {
    const y = doc.y;
    doc.text(cells[0], MARGIN, y, { width: 150 });
    doc.text(cells[1], 200, y, { width: 110, align: 'right' });
    doc.text(cells[2], 320, y, { width: 100, align: 'right' });
    doc.text(cells[3], 430, y, { width: 115, align: 'right' });
    doc.y = Math.max(doc.y, y + 12);
  };
  row(['Tax rate', 'Net', 'Tax', 'Gross']);
  doc.font('Helvetica');
  for (const s of summary) {
    row([
      `${s.rate} %${s.name ? ` ${s.name}` : ''}`,
      money(s.net, inv.currency),
      money(s.tax, inv.currency),
      money(s.gross, inv.currency),
    ]);
  }
  doc.moveDown();
  for (const k of ['payment_provider_text', 'additional_text']) {
    if (!t(k)) continue;
    if (doc.y + doc.heightOfString(t(k), { width: 495 }) > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
    }
    doc.text(t(k), MARGIN, doc.y, { width: 495 });
    doc.moveDown(0.5);
  }

  // Footer and page numbers on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN - 30;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8);
    if (t('footer_text')) doc.text(t('footer_text'), MARGIN, y, { width: 495, align: 'center', height: 20 });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN, y + 18, {
      width: 495,
      align: 'center',
    });
  }
  doc.end();
  return done;
}
