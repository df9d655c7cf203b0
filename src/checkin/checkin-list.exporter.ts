import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { TaskError } from '../tasks/task-executor';
import {
  Exporter,
  ExporterDeclaration,
  ExportScope,
  ExportTable,
  mapBatches,
  nameIn,
} from '../tasks/exporter';
import { CheckinExport } from './checkin-export';

/**
 * `checkinlist` (compat §3.7): event level, needs `event.orders:read` or `event.orders:checkin`. Form: `list`
 * (required id of a check-in list), `paid_only` (default true).
 */
export const CHECKIN_LIST_EXPORT: ExporterDeclaration = {
  identifier: 'checkinlist',
  verboseName: 'Check-in list',
  levels: ['event'],
  permission: { event: ['event.orders:read', 'event.orders:checkin'] },
  form(c) {
    c.requiredId('list');
    c.bool('paid_only', true);
  },
};

/** The `checkinlist` exporter: the positions of a check-in list with their check-in state ({@link CheckinExport}). */
@Injectable()
@Exporter('checkinlist')
export class CheckinListExporter implements Exporter {
  readonly declaration = CHECKIN_LIST_EXPORT;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly checkins: CheckinExport,
    private readonly sales: SalesCatalogue,
  ) {}

  /** The `Check-in list` table. @throws TaskError when the list no longer exists */
  async tables(scope: ExportScope): Promise<ExportTable[]> {
    const f = scope.form;
    const list = await this.checkins.list(scope.event!.id, Number(f.list));
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
        batches: mapBatches(this.checkins.rows(list, f.paid_only === true), async (rows) => {
          const names = await this.sales.itemNames(
            this.db.manager,
            rows.map((r) => r.item_id),
          );
          return rows.map((r) => [
            r.order_code,
            r.positionid,
            nameIn(names.get(r.item_id), scope.locale),
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
}
