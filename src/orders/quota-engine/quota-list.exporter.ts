import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QUOTA_AVAILABILITY, QuotaAvailability } from '../../catalogue/quotas/quota-availability';
import { QuotaLookup } from '../../catalogue/quotas/quota-lookup.service';
import { CatalogueExportRows } from '../../catalogue/sales/catalogue-export-rows';
import { Cell, Exporter, ExporterDeclaration, ExportScope, ExportTable } from '../../tasks/exporter';

/** `quotas` (compat §3.7): event level, readable by anyone who reaches the event. Form: `_format` only. */
export const QUOTA_LIST_EXPORT: ExporterDeclaration = {
  identifier: 'quotas',
  verboseName: 'Quota availabilities',
  levels: ['event'],
  permission: { event: [] },
  form() {},
};

/**
 * The `quotas` exporter: the event's quotas with their availability. It lives with the quota engine, which
 * computes the availability (the catalogue's `QUOTA_AVAILABILITY` port); the quotas come from the catalogue.
 */
@Injectable()
@Exporter('quotas')
export class QuotaListExporter implements Exporter {
  readonly declaration = QUOTA_LIST_EXPORT;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly catalogue: CatalogueExportRows,
    private readonly quotaLookup: QuotaLookup,
    @Inject(QUOTA_AVAILABILITY) private readonly availability: QuotaAvailability,
  ) {}

  /** The `Quotas` table (one batch). */
  tables(scope: ExportScope): Promise<ExportTable[]> {
    return Promise.resolve([
      {
        name: 'Quotas',
        header: ['ID', 'Name', 'Date', 'Size', 'Paid', 'Pending', 'Available'],
        batches: this.quotaRows(scope.event!.id),
      },
    ]);
  }

  private async *quotaRows(eventId: number): AsyncGenerator<Cell[][]> {
    const ids = await this.catalogue.quotaIds(eventId);
    const quotas = await this.quotaLookup.load(this.db.manager, ids, false);
    const counts = await this.availability.compute(this.db.manager, quotas);
    yield quotas.map((q) => {
      const a = counts.get(q.id);
      return [
        q.id,
        q.name,
        q.subeventId,
        q.size,
        a?.paid_orders ?? 0,
        a?.pending_orders ?? 0,
        a?.available_number ?? (a?.available ? 'unlimited' : 0),
      ];
    });
  }
}
