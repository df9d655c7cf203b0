import type { EntityManager } from 'typeorm';
import { TicketFileQueries } from './ticket-file.queries';

/** The shredder calls this outside Nest's container; the queries class is stateless. */
const queries = new TicketFileQueries();

/**
 * Part of the `attendee_info` shredder (compat §3.8): rendered tickets show attendee names, seats and order codes,
 * so every cached ticket PDF of the event is dropped on the caller's transaction (the next download renders again
 * from the shredded data; a render in flight finds its row gone and discards its file).
 * @returns the stored-file ids of the dropped PDFs, for the caller to delete
 */
export async function shredTicketFiles(em: EntityManager, eventId: number): Promise<string[]> {
  return queries.dropOfEvent(em, eventId);
}
