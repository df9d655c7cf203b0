import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** An order's e-mail, phone and its attendees' e-mails by `positionid`. */
export interface OrderEmailRow {
  code: string;
  email: string | null;
  phone: string | null;
  positions: Record<string, string>;
}

/** An order's invoice address as stored (a JSON object of its fields). */
export interface InvoiceAddressRow {
  code: string;
  address: Record<string, unknown>;
}

/** A position's attendee data, keyed `<code>-<positionid>`. */
export interface AttendeeInfoRow {
  key: string;
  info: Record<string, unknown>;
}

/** A position's answers (`{question id: answer}`), keyed `<code>-<positionid>`. */
export interface QuestionAnswersRow {
  key: string;
  answers: Record<string, string>;
}

/**
 * The SQL of the order shredders (compat §3.8): reads of an event's personal order data and their removal, on
 * the caller's `em` (the shredder's transaction). Stateless; `order-shredding.ts` shapes the results.
 */
@Injectable()
export class OrderShreddingQueries {
  /** The e-mail addresses and phone numbers of the event's orders and attendees, by order code. */
  orderEmails(em: EntityManager, eventId: number): Promise<OrderEmailRow[]> {
    return em.query(
      `SELECT o.code, o.email, o.phone,
              coalesce((SELECT jsonb_object_agg(p.positionid, p.attendee_email) FROM order_position p
                         WHERE p.order_id = o.id AND p.attendee_email IS NOT NULL), '{}'::jsonb) AS positions
         FROM orders o WHERE o.event_id = $1 ORDER BY o.code`,
      [eventId],
    );
  }

  /** Clears the order e-mail addresses and phone numbers, then the attendees' e-mail addresses (two statements). */
  async clearOrderEmails(em: EntityManager, eventId: number): Promise<void> {
    await em.query(`UPDATE orders SET email = NULL, phone = NULL WHERE event_id = $1`, [eventId]);
    await em.query(`UPDATE order_position SET attendee_email = NULL WHERE event_id = $1`, [eventId]);
  }

  /** The invoice addresses of the event's orders, by order code. */
  invoiceAddresses(em: EntityManager, eventId: number): Promise<InvoiceAddressRow[]> {
    return em.query(
      `SELECT o.code, jsonb_build_object('is_business', a.is_business, 'company', a.company, 'name_parts', a.name_parts,
            'street', a.street, 'zipcode', a.zipcode, 'city', a.city, 'country', a.country, 'state', a.state,
            'vat_id', a.vat_id, 'custom_field', a.custom_field, 'internal_reference', a.internal_reference,
            'beneficiary', a.beneficiary) AS address
       FROM invoice_address a JOIN orders o ON o.id = a.order_id WHERE o.event_id = $1 ORDER BY o.code`,
      [eventId],
    );
  }

  /** Deletes the invoice addresses of the event's orders. */
  async deleteInvoiceAddresses(em: EntityManager, eventId: number): Promise<void> {
    await em.query(
      `DELETE FROM invoice_address a USING orders o WHERE o.id = a.order_id AND o.event_id = $1`,
      [eventId],
    );
  }

  /** Attendee names and addresses of the event's positions, in code and position order. */
  attendeeInfo(em: EntityManager, eventId: number): Promise<AttendeeInfoRow[]> {
    return em.query(
      `SELECT o.code || '-' || p.positionid AS key,
            jsonb_build_object('name_parts', p.attendee_name_parts, 'company', p.company, 'street', p.street,
              'zipcode', p.zipcode, 'city', p.city, 'country', p.country, 'state', p.state) AS info
       FROM order_position p JOIN orders o ON o.id = p.order_id WHERE p.event_id = $1 ORDER BY o.code, p.positionid`,
      [eventId],
    );
  }

  /** Clears attendee names and addresses of the event's positions. */
  async clearAttendeeInfo(em: EntityManager, eventId: number): Promise<void> {
    await em.query(
      `UPDATE order_position SET attendee_name_parts = '{}'::jsonb, company = NULL, street = NULL, zipcode = NULL,
            city = NULL, country = NULL, state = NULL
      WHERE event_id = $1`,
      [eventId],
    );
  }

  /** The answers of the event's order positions, in code and position order. */
  questionAnswers(em: EntityManager, eventId: number): Promise<QuestionAnswersRow[]> {
    return em.query(
      `SELECT o.code || '-' || p.positionid AS key, jsonb_object_agg(a.question_id, a.answer) AS answers
       FROM question_answer a JOIN order_position p ON p.id = a.order_position_id JOIN orders o ON o.id = p.order_id
      WHERE p.event_id = $1 GROUP BY o.code, p.positionid ORDER BY o.code, p.positionid`,
      [eventId],
    );
  }

  /** Deletes the answers of the event's order positions. */
  async deleteQuestionAnswers(em: EntityManager, eventId: number): Promise<void> {
    await em.query(
      `DELETE FROM question_answer a USING order_position p WHERE p.id = a.order_position_id AND p.event_id = $1`,
      [eventId],
    );
  }
}
