import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { CatalogueExportRows } from '../catalogue/sales/catalogue-export-rows';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { QUOTA_AVAILABILITY, QuotaAvailability } from '../catalogue/quotas/quota-availability';
import { QuotaLookup } from '../catalogue/quotas/quota-lookup.service';
import { CheckinExport } from '../checkin/checkin-export';
import { GiftCardExportRows } from '../giftcards/giftcard-export-rows';
import { OrderExportRows } from '../orders/presentation/order-export-rows';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { TaskError } from '../tasks/task-executor';
import type { ExportFormat } from './export-forms.rules';
import { coverage, frameBounds, ScopeEvent } from './export-scope.rules';
import { Cell, ExportFile, ExportTable, tablesFile } from './table-writer';

/** One export to run: who for, where, which exporter with which (cleaned) form data. */
export interface ExportJob {
  principal: Principal;
  organizerId: number;
  /** Null: organizer level. */
  eventId: number | null;
  identifier: string;
  form: Record<string, unknown>;
  locale: string;
  /** Time zone of organizer-level date frames. */
  timezone: string;
}

/** Refusal when the owner may no longer read what the export covers. */
export const EXPORT_FORBIDDEN = 'The owner of this export does not have the permission to run it.';

const nameIn = (name: Record<string, string> | undefined, locale: string): string =>
  !name ? '' : (name[locale] ?? name.en ?? Object.values(name)[0] ?? '');

/**
 * Runs the exporters of issue 13 (`orderlist`, `checkinlist`, `giftcardlist`, `voucherlist`, `quotas`): checks
 * the job and gives the file to write ({@link tablesFile}), whose writer reads the rows their owning contexts give
 * in batches. The data is limited to what `job.principal` may read now ({@link coverage}).
 * @throws TaskError {@link EXPORT_FORBIDDEN} when it may read nothing the export needs, or for a missing list
 */
@Injectable()
export class Exporters {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenancy: TenancyQueries,
    private readonly orders: OrderExportRows,
    private readonly checkins: CheckinExport,
    private readonly giftcards: GiftCardExportRows,
    private readonly catalogue: CatalogueExportRows,
    private readonly sales: SalesCatalogue,
    private readonly quotaLookup: QuotaLookup,
    @Inject(QUOTA_AVAILABILITY) private readonly availability: QuotaAvailability,
  ) {}

  async run(job: ExportJob): Promise<ExportFile> {
    const events: ScopeEvent[] = await this.tenancy.eventsOfOrganizer(this.db.manager, job.organizerId);
    const event = job.eventId === null ? null : (events.find((e) => e.id === job.eventId) ?? null);
    if (job.eventId !== null && !event) throw new TaskError('The event of this export no longer exists.');
    const covered = coverage(job.principal, job.identifier, job.organizerId, event, events, job.form);
    if (!covered) throw new TaskError(EXPORT_FORBIDDEN);
    const format = job.form._format as ExportFormat;
    const base = `${event ? event.slug : 'organizer'}_${job.identifier}`;
    return tablesFile(format, base, await this.tables(job, event, covered.eventIds));
  }

  private async tables(job: ExportJob, event: ScopeEvent | null, eventIds: number[]): Promise<ExportTable[]> {
    const f = job.form;
    switch (job.identifier) {
      case 'orderlist':
        return [this.orderTable(job, eventIds, frameBounds(f.date_range, event?.timezone ?? job.timezone))];
      case 'checkinlist': {
        const list = await this.checkins.list(event!.id, Number(f.list));
        if (!list) throw new TaskError('The check-in list of this export no longer exists.');
        return [
          {
            name: 'Check-in list',
            header: [
              'Order code',
              'Position',
              'Product',
              'Attendee name',
              'Attendee e-mail',
              'Status',
              'Checked in',
              'Last scan',
              'Last scan type',
            ],
            batches: this.mapped(this.checkins.rows(list, f.paid_only === true), async (rows) => {
              const names = await this.sales.itemNames(
                this.db.manager,
                rows.map((r) => r.item_id),
              );
              return rows.map((r) => [
                r.order_code,
                r.positionid,
                nameIn(names.get(r.item_id), job.locale),
                r.attendee_name,
                r.attendee_email,
                r.order_status,
                r.last_scan_type === 'entry',
                r.last_scan_datetime,
                r.last_scan_type,
              ]);
            }),
          },
        ];
      }
      case 'giftcardlist':
        return [
          {
            name: 'Gift cards',
            header: ['ID', 'Secret', 'Issued', 'Value', 'Currency', 'Test mode', 'Expires', 'Conditions'],
            batches: this.mapped(this.giftcards.cards(job.organizerId, f.testmode === true), (rows) =>
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
        ];
      case 'voucherlist':
        return [
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
            batches: this.mapped(this.catalogue.vouchers(event!.id), (rows) =>
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
        ];
      case 'quotas':
        return [
          {
            name: 'Quotas',
            header: ['ID', 'Name', 'Date', 'Size', 'Paid', 'Pending', 'Available'],
            batches: this.quotaRows(event!.id),
          },
        ];
      default:
        throw new TaskError(`Unknown exporter ${job.identifier}.`);
    }
  }

  private orderTable(
    job: ExportJob,
    eventIds: number[],
    dates: { from: Date | null; before: Date | null },
  ): ExportTable {
    const f = job.form;
    const payments = f.include_payment_amounts === true;
    const header = [
      'Event',
      'Order code',
      'Order status',
      'E-mail',
      'Order date',
      'Order total',
      ...(payments ? ['Payment amount'] : []),
      'Position ID',
      'Position',
      'Product',
      'Variation',
      'Date',
      'Price',
      'Tax rate',
      'Attendee name',
      'Attendee e-mail',
    ];
    const rows = this.orders.positions({
      eventIds,
      paidOnly: f.paid_only === true,
      itemIds: Array.isArray(f.items) ? (f.items as number[]) : [],
      orderedFrom: dates.from,
      orderedBefore: dates.before,
    });
    const slugs = new Map<number, string>();
    return {
      name: 'Order positions',
      header,
      batches: this.mapped(rows, async (batch) => {
        const names = await this.sales.itemNames(
          this.db.manager,
          batch.map((r) => r.item_id),
        );
        if (slugs.size === 0)
          for (const e of await this.tenancy.eventsByIds(this.db.manager, job.organizerId, eventIds))
            slugs.set(e.id, e.slug);
        return batch.map((r): Cell[] => [
          slugs.get(r.event_id) ?? '',
          r.order_code,
          r.order_status,
          r.order_email,
          r.order_datetime,
          r.order_total,
          ...(payments ? [r.payment_amount] : []),
          r.position_id,
          r.positionid,
          nameIn(names.get(r.item_id), job.locale),
          r.variation_id,
          r.subevent_id,
          r.price,
          r.tax_rate,
          r.attendee_name,
          r.attendee_email,
        ]);
      }),
    };
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

  private async *mapped<T>(source: AsyncIterable<T[]>, map: (rows: T[]) => Cell[][] | Promise<Cell[][]>) {
    for await (const rows of source) yield await map(rows);
  }
}
