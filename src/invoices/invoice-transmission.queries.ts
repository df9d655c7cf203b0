import type { EntityManager } from 'typeorm';
import { returning } from '../tasks/sql';
import type { TransmissionStatus } from './invoice.entity';

/** An invoice a transmission works on. */
export interface TransmissionRow {
  id: number;
  organizer_id: number;
  event_id: number;
  order_id: number;
  order_code: string;
  number: string;
  transmission_type: string;
  transmission_status: TransmissionStatus;
  invoice_to_transmission_info: Record<string, unknown>;
  pdf_file_id: string | null;
  pdf_generation: number;
}

/** An invoice whose transmission just ended, for its log entry. */
export interface TransmittedRow {
  id: number;
  organizer_id: number;
  event_id: number;
  order_id: number;
  number: string;
}

const ROW = `id, organizer_id, event_id, order_id, order_code, number, transmission_type, transmission_status,
             invoice_to_transmission_info, pdf_file_id, pdf_generation`;
const DONE = 'id, organizer_id, event_id, order_id, number';

/**
 * The statements of invoice transmission on `invoice` (owned by the invoices context; spec "Invoices"
 * `transmit/`, `retransmit/`). Stateless; each runs on the caller's EntityManager.
 */
export class InvoiceTransmissionQueries {
  /** The event's invoice with this number, locked `FOR UPDATE` until the caller commits; or null. */
  async lockByNumber(em: EntityManager, eventId: number, number: string): Promise<TransmissionRow | null> {
    const rows: TransmissionRow[] = await em.query(
      `SELECT ${ROW} FROM invoice WHERE event_id = $1 AND number = $2 FOR UPDATE`,
      [eventId, number],
    );
    return rows[0] ?? null;
  }

  /** Sets the status (and the date to now); `provider` too unless undefined; ends the wait for a mail. */
  async setStatus(
    em: EntityManager,
    id: number,
    status: TransmissionStatus,
    provider?: string | null,
  ): Promise<void> {
    await em.query(
      `UPDATE invoice SET transmission_status = $2, transmission_date = now(), transmission_mail_id = NULL,
              transmission_provider = CASE WHEN $3 THEN $4 ELSE transmission_provider END
        WHERE id = $1`,
      [id, status, provider !== undefined, provider ?? null],
    );
  }

  /**
   * pretix `transmit_invoice`'s claim: `inflight` (date now) unless it is `inflight` already, or not `pending`
   * while `allowRetransmission` is false. @returns the claimed invoice, or null when nothing is to be done
   */
  async claim(em: EntityManager, id: number, allowRetransmission: boolean): Promise<TransmissionRow | null> {
    const rows = await returning<TransmissionRow>(
      em,
      `UPDATE invoice SET transmission_status = 'inflight', transmission_date = now()
        WHERE id = $1 AND transmission_status <> 'inflight' AND ($2 OR transmission_status = 'pending')
        RETURNING ${ROW}`,
      [id, allowRetransmission],
    );
    return rows[0] ?? null;
  }

  /** The outbox mail that carries the invoice: its outcome ends the transmission. */
  async awaitMail(em: EntityManager, id: number, mailId: number): Promise<void> {
    await em.query('UPDATE invoice SET transmission_mail_id = $2 WHERE id = $1', [id, mailId]);
  }

  /**
   * The invoices carried by mail `mailId` are `completed` by `email_pdf` (pretix `mail_send_task`): the first
   * completion sets date, provider and `{"sent": [{recipients, datetime}]}`; a later one by mail appends to
   * `sent`. @returns the invoices, for their log entries
   */
  mailSent(em: EntityManager, mailId: number, recipients: string[]): Promise<TransmittedRow[]> {
    return returning<TransmittedRow>(
      em,
      `UPDATE invoice SET
          transmission_info = CASE
            WHEN transmission_status <> 'completed' THEN jsonb_build_object('sent', jsonb_build_array($2::jsonb))
            WHEN transmission_provider = 'email_pdf'
              THEN jsonb_set(transmission_info, '{sent}', coalesce(transmission_info->'sent', '[]'::jsonb) || $2::jsonb)
            ELSE transmission_info END,
          transmission_date = CASE WHEN transmission_status <> 'completed' THEN now() ELSE transmission_date END,
          transmission_provider = CASE WHEN transmission_status <> 'completed' THEN 'email_pdf'
            ELSE transmission_provider END,
          transmission_status = 'completed',
          transmission_mail_id = NULL
        WHERE transmission_mail_id = $1
        RETURNING ${DONE}`,
      [mailId, JSON.stringify({ recipients, datetime: new Date().toISOString() })],
    );
  }

  /** The invoices carried by mail `mailId` failed (provider `email_pdf`). @returns them, for their log entries */
  mailFailed(em: EntityManager, mailId: number): Promise<TransmittedRow[]> {
    return returning<TransmittedRow>(
      em,
      `UPDATE invoice SET transmission_status = 'failed', transmission_date = now(),
              transmission_provider = 'email_pdf', transmission_mail_id = NULL
        WHERE transmission_mail_id = $1
        RETURNING ${DONE}`,
      [mailId],
    );
  }
}
