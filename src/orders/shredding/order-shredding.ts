import type { EntityManager } from 'typeorm';
import { OrderShreddingQueries } from './order-shredding.queries';

/**
 * Personal data of an event's orders, exported and then removed for the shredders of compat §3.8 (called by the
 * shredder context; only orders names its tables). Each export is a JSON-ready value; each shred runs on the
 * caller's transaction and is idempotent. The SQL is {@link OrderShreddingQueries}' (stateless, so created here:
 * the shredders are not DI-managed).
 */
const queries = new OrderShreddingQueries();

/** `order_emails`: `{code: {email, phone, attendee_emails: {positionid: email}}}`. */
export async function exportOrderEmails(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows = await queries.orderEmails(em, eventId);
  return Object.fromEntries(
    rows.map((r) => [r.code, { email: r.email, phone: r.phone, attendee_emails: r.positions }]),
  );
}

/** Removes the order e-mail addresses and phone numbers, and the attendees' e-mail addresses. */
export async function shredOrderEmails(em: EntityManager, eventId: number): Promise<void> {
  await queries.clearOrderEmails(em, eventId);
}

/** `invoice_addresses`: `{code: address}` (the stored fields). */
export async function exportInvoiceAddresses(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows = await queries.invoiceAddresses(em, eventId);
  return Object.fromEntries(rows.map((r) => [r.code, r.address]));
}

/** Deletes the invoice addresses of the event's orders. */
export async function shredInvoiceAddresses(em: EntityManager, eventId: number): Promise<void> {
  await queries.deleteInvoiceAddresses(em, eventId);
}

/** `attendee_info`: `{"<code>-<positionid>": {name_parts, company, street, zipcode, city, country, state}}`. */
export async function exportAttendeeInfo(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows = await queries.attendeeInfo(em, eventId);
  return Object.fromEntries(rows.map((r) => [r.key, r.info]));
}

/** Clears attendee names and addresses of the event's positions. */
export async function shredAttendeeInfo(em: EntityManager, eventId: number): Promise<void> {
  await queries.clearAttendeeInfo(em, eventId);
}

/** `question_answers`: `{"<code>-<positionid>": {question id: answer}}`. */
export async function exportQuestionAnswers(
  em: EntityManager,
  eventId: number,
): Promise<Record<string, unknown>> {
  const rows = await queries.questionAnswers(em, eventId);
  return Object.fromEntries(rows.map((r) => [r.key, r.answers]));
}

/** Deletes the answers of the event's order positions. */
export async function shredQuestionAnswers(em: EntityManager, eventId: number): Promise<void> {
  await queries.deleteQuestionAnswers(em, eventId);
}
