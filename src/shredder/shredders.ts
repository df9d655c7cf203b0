import type { EntityManager } from 'typeorm';
import { exportCheckins, shredCheckins } from '../checkin/checkin-shredding';
import { exportInvoices, shredInvoices } from '../invoices/invoice-shredding';
import {
  exportAttendeeInfo,
  exportInvoiceAddresses,
  exportOrderEmails,
  exportQuestionAnswers,
  shredAttendeeInfo,
  shredInvoiceAddresses,
  shredOrderEmails,
  shredQuestionAnswers,
} from '../orders/shredding/order-shredding';
import { shredTicketFiles } from '../tickets/ticket-shredding';

/** One data shredder (compat §3.8): what it exports before and removes on shredding, in its owner context. */
export interface Shredder {
  identifier: string;
  verbose_name: string;
  /** The data to keep, written as `<identifier>.json` into the export ZIP. */
  export(em: EntityManager, eventId: number): Promise<unknown>;
  /** Removes the data on the caller's transaction; returns stored-file ids to delete (invoice and ticket PDFs). */
  shred(em: EntityManager, eventId: number): Promise<string[]>;
}

const none = (p: Promise<void>): Promise<string[]> => p.then(() => []);

/** Every shredder, unsorted. */
const ALL: Shredder[] = [
  {
    identifier: 'order_emails',
    verbose_name: 'E-mails',
    export: exportOrderEmails,
    shred: (em, id) => none(shredOrderEmails(em, id)),
  },
  {
    identifier: 'invoice_addresses',
    verbose_name: 'Invoice addresses',
    export: exportInvoiceAddresses,
    shred: (em, id) => none(shredInvoiceAddresses(em, id)),
  },
  {
    identifier: 'attendee_info',
    verbose_name: 'Attendee info',
    export: exportAttendeeInfo,
    // Cached ticket PDFs show the attendee: dropped with the data they were drawn from.
    shred: async (em, id) => {
      await shredAttendeeInfo(em, id);
      return shredTicketFiles(em, id);
    },
  },
  {
    identifier: 'question_answers',
    verbose_name: 'Question answers',
    export: exportQuestionAnswers,
    shred: (em, id) => none(shredQuestionAnswers(em, id)),
  },
  {
    identifier: 'invoices',
    verbose_name: 'Invoices',
    export: exportInvoices,
    shred: shredInvoices,
  },
  {
    identifier: 'checkins',
    verbose_name: 'Check-in data',
    export: exportCheckins,
    shred: (em, id) => none(shredCheckins(em, id)),
  },
];

/** Every shredder, sorted by `verbose_name` (the list order of `E/shredders/`). */
export const SHREDDERS: readonly Shredder[] = [...ALL].sort((a, b) =>
  a.verbose_name.localeCompare(b.verbose_name),
);

/** The shredder with this identifier, or undefined. */
export function shredderOf(identifier: string): Shredder | undefined {
  return SHREDDERS.find((s) => s.identifier === identifier);
}

/** Task kinds of the shredder queue. */
export const SHRED_EXPORT = 'shredder.export';
export const SHRED_RUN = 'shredder.shred';

/** How long the export file (and its task) is kept: two hours (compat §3.8). */
export const EXPORT_TTL_MS = 2 * 60 * 60 * 1000;
/** How long the status of a shred is known: one hour (spec "Shredder status retention"). */
export const SHRED_STATUS_TTL_MS = 60 * 60 * 1000;

/** Input of both task kinds: the shredders and the opaque file id of the export. */
export interface ShredTaskInput {
  shredders: string[];
  file: string;
  /** Shred task: the export task whose file it consumes. */
  export?: string;
}

/** `stored_file.kind` of export ZIPs. */
export const EXPORT_FILE_KIND = 'shredder_export';
