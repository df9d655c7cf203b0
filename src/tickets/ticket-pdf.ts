import type { TicketPage } from './ticket-content.rules';

const MARGIN = 50;
/** Side of the QR code on the page (points; 1 pt = 1/72 inch). */
const QR_SIZE = 170;

/**
 * Renders tickets as an A4 PDF with pdfkit, one page per ticket: event, date and location, product and
 * variation, attendee, seat, order code and position, and a QR code of the ticket secret, drawn as an embedded PNG
 * image (package `qrcode`, error correction M). Texts use the standard Helvetica font.
 * @returns the PDF bytes
 */
export async function renderTicketPdf(pages: readonly TicketPage[], title: string): Promise<Buffer> {
  // Loaded on first use, like the invoice renderer: a worker that renders no ticket does not load them.
  const [{ default: PDFDocument }, QRCode] = await Promise.all([import('pdfkit'), import('qrcode')]);
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  for (const page of pages) {
    doc.addPage();
    const width = doc.page.width - 2 * MARGIN;
    doc.font('Helvetica-Bold').fontSize(22).text(page.event, MARGIN, MARGIN, { width });
    doc.moveDown(0.3).font('Helvetica').fontSize(12).text(page.date, { width });
    if (page.location) doc.text(page.location, { width });
    doc.moveDown(1.2).font('Helvetica-Bold').fontSize(16).text(page.product, { width });
    if (page.variation) doc.font('Helvetica').fontSize(13).text(page.variation, { width });
    doc.moveDown(0.8).font('Helvetica').fontSize(12);
    if (page.attendee) doc.text(`Attendee: ${page.attendee}`, { width });
    if (page.seat) doc.text(`Seat: ${page.seat}`, { width });
    doc.text(`Order: ${page.orderCode}-${page.positionid}`, { width });
    const png = await QRCode.toBuffer(page.secret, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 4,
      scale: 6,
    });
    const top = Math.max(doc.y + 24, 300);
    doc.image(png, MARGIN, top, { width: QR_SIZE, height: QR_SIZE });
    doc.fontSize(8).text(page.secret, MARGIN, top + QR_SIZE + 6, { width });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
