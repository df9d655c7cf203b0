import { Injectable } from '@nestjs/common';
import { Exporter, ExporterDeclaration, ExportScope, ExportTable, mapBatches } from '../tasks/exporter';
import { GiftCardExportRows } from './giftcard-export-rows';

/**
 * `giftcardlist` (compat §3.7): organizer level, needs `organizer.giftcards:read`. Form: `testmode` (default
 * false).
 */
export const GIFTCARD_LIST_EXPORT: ExporterDeclaration = {
  identifier: 'giftcardlist',
  verboseName: 'Gift cards',
  levels: ['organizer'],
  permission: { organizer: ['organizer.giftcards:read'] },
  form(c) {
    c.bool('testmode', false);
  },
};

/** The `giftcardlist` exporter: the organizer's gift cards ({@link GiftCardExportRows}). */
@Injectable()
@Exporter('giftcardlist')
export class GiftCardListExporter implements Exporter {
  readonly declaration = GIFTCARD_LIST_EXPORT;

  constructor(private readonly giftcards: GiftCardExportRows) {}

  /** The `Gift cards` table. */
  tables(scope: ExportScope): Promise<ExportTable[]> {
    return Promise.resolve([
      {
        name: 'Gift cards',
        header: ['ID', 'Secret', 'Issued', 'Value', 'Currency', 'Test mode', 'Expires', 'Conditions'],
        batches: mapBatches(this.giftcards.cards(scope.organizerId, scope.form.testmode === true), (rows) =>
          rows.map((r) => [
            r.id,
            r.secret,
            r.issuance,
            r.value,
            r.currency,
            r.testmode,
            r.expires,
            r.conditions,
          ]),
        ),
      },
    ]);
  }
}
