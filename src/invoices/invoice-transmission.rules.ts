/**
 * Transmission of invoices (spec "Invoices" `transmit/`, `retransmit/`; pretix 2025.6 `transmit_invoice`, the
 * `email` type and its provider `email_pdf`): names, messages and the mail pretix sends.
 */

/** Job name of a transmission on the `invoices` queue. */
export const TRANSMIT_INVOICE = 'transmit-invoice';

/** The one transmission type served, and its provider (pretix `EmailTransmissionProvider`). */
export const EMAIL_TYPE = 'email';
export const EMAIL_PROVIDER = 'email_pdf';

/** pretix's answers of `transmit/` (403) and `retransmit/` (409, `CurrentlyInflightException`). */
export const TRANSMISSION_MESSAGES = {
  notPending: 'The invoice is not in pending state.',
  inflight: 'The requested action is already in progress.',
} as const;

/** Log actions of pretix (order log entries). */
export const TRANSMISSION_ACTIONS = {
  retransmitted: 'pretix.event.order.invoice.retransmitted',
  emailed: 'pretix.event.order.email.invoice',
  sent: 'pretix.event.order.invoice.sent',
  failed: 'pretix.event.order.invoice.sending_failed',
} as const;

/**
 * A transmission job's data. `orderEmail` and `eventName`: the order's address and the event's name when the
 * transmission was asked for (the worker reads no order or event rows).
 */
export interface TransmitJob {
  invoiceId: number;
  allowRetransmission: boolean;
  orderEmail: string | null;
  eventName: string;
}

/**
 * pretix `EmailTransmissionProvider.transmit`: the `transmission_email_address` of the invoice's transmission
 * info, else the order's e-mail; null when there is none (the transmission fails, reason `no_recipient`).
 */
export function emailRecipient(info: Record<string, unknown>, orderEmail: string | null): string | null {
  const other = info.transmission_email_address;
  if (typeof other === 'string' && other !== '') return other;
  return orderEmail || null;
}

/**
 * The attachment's name: pretix's `Invoice_<number>.pdf` (spaces as `_`, anything outside `[A-Za-z0-9-_.]` as
 * `_`).
 */
export function invoiceAttachmentName(number: string): string {
  return `Invoice_${number.replace(/ /g, '_')}.pdf`.replace(/[^a-zA-Z0-9\-_.]+/g, '_');
}

/** Subject and plain text of the invoice mail (pretix's default `mail_subject_order_invoice` / `mail_text_order_invoice`, English). */
export function invoiceMail(
  number: string,
  orderCode: string,
  eventName: string,
): { subject: string; body: string } {
  return {
    subject: `Invoice ${number}`,
    body:
      `Hello,\n\nplease find attached a new invoice for order ${orderCode} for ${eventName}.\n\n` +
      `Best regards,\nYour ${eventName} team`,
  };
}
