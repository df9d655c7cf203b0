import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { frameBounds } from '../../tasks/export-form';
import {
  Cell,
  Exporter,
  ExporterDeclaration,
  ExportScope,
  ExportTable,
  mapBatches,
  nameIn,
} from '../../tasks/exporter';
import { OrderExportRows } from './order-export-rows';

/**
 * `orderlist` (compat §3.7): event and organizer level, needs `event.orders:read` on each event. Form:
 * `paid_only`, `include_payment_amounts` (booleans, default false), `date_range` (order date frame, default
 * `"/"`; pretix's relative frames such as `week_this` too), `items` (product ids, default `[]` = all),
 * `group_multiple_choice` (accepted, kept when sent, no effect), organizer level `event_date_range` (default `"/"`;
 * the exports context adds `all_events` and `events` to every organizer-level multi-event exporter).
 */
export const ORDER_LIST_EXPORT: ExporterDeclaration = {
  identifier: 'orderlist',
  verboseName: 'Order data',
  levels: ['event', 'organizer'],
  permission: { event: ['event.orders:read'] },
  form(c, level) {
    c.bool('paid_only', false);
    c.bool('include_payment_amounts', false);
    // Accepted as pretix does; this list has no question columns, so there is nothing to group.
    c.bool('group_multiple_choice', null);
    c.dateFrame('date_range', '/');
    if (level === 'organizer') c.dateFrame('event_date_range', '/');
    c.ids('items');
  },
};

/**
 * The `orderlist` exporter: one row per order position of the covered events ({@link OrderExportRows}), with the
 * event slug and the product name in the export's locale; the order date frame is read in the event's time zone
 * (organizer level: the export's).
 */
@Injectable()
@Exporter('orderlist')
export class OrderListExporter implements Exporter {
  readonly declaration = ORDER_LIST_EXPORT;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenancy: TenancyQueries,
    private readonly orders: OrderExportRows,
    private readonly sales: SalesCatalogue,
  ) {}

  /** The `Order positions` table. */
  tables(scope: ExportScope): Promise<ExportTable[]> {
    const dates = frameBounds(scope.form.date_range, scope.event?.timezone ?? scope.timezone);
    return Promise.resolve([this.orderTable(scope, dates)]);
  }

  private orderTable(scope: ExportScope, dates: { from: Date | null; before: Date | null }): ExportTable {
    const f = scope.form;
    const eventIds = scope.eventIds;
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
      batches: mapBatches(rows, async (batch) => {
        const names = await this.sales.itemNames(
          this.db.manager,
          batch.map((r) => r.item_id),
        );
        if (slugs.size === 0)
          for (const e of await this.tenancy.eventsByIds(this.db.manager, scope.organizerId, eventIds))
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
          nameIn(names.get(r.item_id), scope.locale),
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
}
