import { Injectable } from '@nestjs/common';
import { Exporter, ExporterDeclaration, ExportScope, ExportTable, mapBatches } from '../../tasks/exporter';
import { CatalogueExportRows } from '../sales/catalogue-export-rows';

/** `voucherlist` (compat §3.7): event level, needs `event.vouchers:read`. Form: `_format` only. */
export const VOUCHER_LIST_EXPORT: ExporterDeclaration = {
  identifier: 'voucherlist',
  verboseName: 'Vouchers',
  levels: ['event'],
  permission: { event: ['event.vouchers:read'] },
  form() {},
};

/** The `voucherlist` exporter: the event's vouchers ({@link CatalogueExportRows}). */
@Injectable()
@Exporter('voucherlist')
export class VoucherListExporter implements Exporter {
  readonly declaration = VOUCHER_LIST_EXPORT;

  constructor(private readonly catalogue: CatalogueExportRows) {}

  /** The `Vouchers` table. */
  tables(scope: ExportScope): Promise<ExportTable[]> {
    return Promise.resolve([
      {
        name: 'Vouchers',
        header: [
          'ID',
          'Code',
          'Maximum usages',
          'Redeemed',
          'Valid until',
          'Blocks quota',
          'Price mode',
          'Value',
          'Product',
          'Variation',
          'Quota',
          'Date',
          'Tag',
          'Comment',
        ],
        batches: mapBatches(this.catalogue.vouchers(scope.event!.id), (rows) =>
          rows.map((r) => [
            r.id,
            r.code,
            r.max_usages,
            r.redeemed,
            r.valid_until,
            r.block_quota,
            r.price_mode,
            r.value,
            r.item_id,
            r.variation_id,
            r.quota_id,
            r.subevent_id,
            r.tag,
            r.comment,
          ]),
        ),
      },
    ]);
  }
}
