import type { EntityManager } from 'typeorm';

/**
 * Personal data of an event's orders, exported and then removed for the shredders of compat §3.8 (called by the
 * shredder context; only orders names its tables). Each export is a JSON-ready value; each shred runs on the
 * caller's transaction and is idempotent.
 */

/** `order_emails`: `{code: {email, phone, attendee_emails: {positionid: email}}}`. */
export async function exportOrderEmails(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows: {
    code: string;
    email: string | null;
    phone: string | null;
    positions: Record<string, string>;
  }[] = await em.query(
    `SELECT o.code, o.email, o.phone,
              coalesce((SELECT jsonb_object_agg(p.positionid, p.attendee_email) FROM order_position p
                         WHERE p.order_id = o.id AND p.attendee_email IS NOT NULL), '{}'::jsonb) AS positions
         FROM orders o WHERE o.event_id = $1 ORDER BY o.code`,
    [eventId],
  );
  return Object.fromEntries(
    rows.map((r) => [r.code, { email: r.email, phone: r.phone, attendee_emails: r.positions }]),
  );
}

/** Removes the order e-mail addresses and phone numbers, and the attendees' e-mail addresses. */
export async function shredOrderEmails(em: EntityManager, eventId: number): Promise<void> {
  await em.query(`UPDATE orders SET email = NULL, phone = NULL WHERE event_id = $1`, [eventId]);
  await em.query(`UPDATE order_position SET attendee_email = NULL WHERE event_id = $1`, [eventId]);
}

/** `invoice_addresses`: `{code: address}` (the stored fields). */
export async function exportInvoiceAddresses(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows: { code: string; address: Record<string, unknown> }[] = await em.query(
    `SELECT o.code, jsonb_build_object('is_business', a.is_business, 'company', a.company, 'name_parts', a.name_parts,
            'street', a.street, 'zipcode', a.zipcode, 'city', a.city, 'country', a.country, 'state', a.state,
            'vat_id', a.vat_id, 'custom_field', a.custom_field, 'internal_reference', a.internal_reference,
            'beneficiary', a.beneficiary) AS address
       FROM invoice_address a JOIN orders o ON o.id = a.order_id WHERE o.event_id = $1 ORDER BY o.code`,
    [eventId],
  );
  return Object.fromEntries(rows.map((r) => [r.code, r.address]));
}

/** Deletes the invoice addresses of the event's orders. */
export async function shredInvoiceAddresses(em: EntityManager, eventId: number): Promise<void> {
  await em.query(`DELETE FROM invoice_address a USING orders o WHERE o.id = a.order_id AND o.event_id = $1`, [
    eventId,
  ]);
}

/** `attendee_info`: `{"<code>-<positionid>": {name_parts, company, street, zipcode, city, country, state}}`. */
export async function exportAttendeeInfo(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows: { key: string; info: Record<string, unknown> }[] = await em.query(
    `SELECT o.code || '-' || p.positionid AS key,
            jsonb_build_object('name_parts', p.attendee_name_parts, 'company', p.company, 'street', p.street,
              'zipcode', p.zipcode, 'city', p.city, 'country', p.country, 'state', p.state) AS info
       FROM order_position p JOIN orders o ON o.id = p.order_id WHERE p.event_id = $1 ORDER BY o.code, p.positionid`,
    [eventId],
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.info]));
}

/** Clears attendee names and addresses of the event's positions. */
export async function shredAttendeeInfo(em: EntityManager, eventId: number): Promise<void> {
  await em.query(
    `UPDATE order_position SET attendee_name_parts = '{}'::jsonb, company = NULL, street = NULL, zipcode = NULL,
            city = NULL, country = NULL, state = NULL
      WHERE event_id = $1`,
    [eventId],
  );
}

/** `question_answers`: `{"<code>-<positionid>": {question id: answer}}`. */
export async function exportQuestionAnswers(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows: { key: string; answers: Record<string, string> }[] = await em.query(
    `SELECT o.code || '-' || p.positionid AS key, jsonb_object_agg(a.question_id, a.answer) AS answers
       FROM question_answer a JOIN order_position p ON p.id = a.order_position_id JOIN orders o ON o.id = p.order_id
      WHERE p.event_id = $1 GROUP BY o.code, p.positionid ORDER BY o.code, p.positionid`,
    [eventId],
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.answers]));
}

/** Deletes the answers of the event's order positions. */
export async function shredQuestionAnswers(em: EntityManager, eventId: number): Promise<void> {
  await em.query(
    `DELETE FROM question_answer a USING order_position p WHERE p.id = a.order_position_id AND p.event_id = $1`,
    [eventId],
  );
}
