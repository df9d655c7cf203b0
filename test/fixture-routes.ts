import { readFileSync } from 'fs';
import { join } from 'path';
import type { FixtureRoute } from './route-fixture';

const DEVICE_INFO = '/api/v1/device/info';

/**
 * Every GET route of test/route-table.json but the public OpenAPI document and the routes that are no plain reads,
 * with its URL on the fixture of `seedRouteFixture` (test/route-fixture.ts) (its route parameter values).
 */
export function fixtureRoutes(
  params: Record<string, string>,
  onDate: Record<string, string>,
  ids: Record<string, number | string>,
): FixtureRoute[] {
  const table = JSON.parse(readFileSync(join(__dirname, 'route-table.json'), 'utf8')) as {
    method: string;
    path: string;
    access: { kind: string };
  }[];
  return (
    table
      // Invoice PDFs (409 until a worker renders them) and the GET forms of invoice actions (writes) are no reads.
      .filter((r) => r.method === 'GET' && r.access.kind !== 'public')
      .filter((r) => !/\/invoices\/:number\/(download|reissue|regenerate)\/$/.test(r.path))
      // Shredder downloads and statuses poll tasks started by a POST (test/shredders.e2e-spec.ts).
      .filter((r) => !/\/shredders\/(download|status)\/:task\/:file\/$/.test(r.path))
      // Exporter downloads poll tasks started by a POST (test/exporters.e2e-spec.ts).
      .filter((r) => !/\/exporters\/:identifier\/download\/:task\/:file\/$/.test(r.path))
      // Ticket downloads answer 409 until a worker rendered them (test/ticket-downloads.e2e-spec.ts).
      .filter((r) => !/\/download\/:output\/$/.test(r.path))
      // Ticket layout images: the fixture has no file answer, so 404 (test/orders-libpretixsync.e2e-spec.ts).
      .filter((r) => !/\/pdf_image\/:key\/$/.test(r.path))
      // Live event streams never end; opening one reads the list (1) and a resumption 3 more
      // (test/checkin-stream.e2e-spec.ts).
      .filter((r) => !/\/checkinlists\/:list\/stream\/$/.test(r.path))
      // The change feed runs its sequencer and renders per resource type on the page: bounded by the types on a
      // page, not its size (test/statement-counts.e2e-spec.ts has its own test).
      .filter((r) => !r.path.endsWith('/changes/'))
      // The live figures' stream: opening one is the figures of `stats/` and one Redis read
      // (test/live-stats.e2e-spec.ts).
      .filter((r) => !/\/stats\/stream\/$/.test(r.path))
      .map((r) => {
        const segments = r.path.split('/');
        const url = segments
          .map((s, i) => {
            if (!s.startsWith(':')) return s;
            const name = s.slice(1);
            const onSeries = r.path.includes(':subevent');
            if (onSeries && name === 'event') return 'series';
            if (onSeries && name === 'subevent') return onDate.subevent;
            if (onSeries && name === 'id') return onDate.seat;
            if (name === 'id' && segments[i - 1] === 'scheduled_exports' && r.path.includes('/:event/'))
              return String(ids.scheduled_exports_event);
            if (name === 'id' || name === 'code') return String(ids[segments[i - 1]]);
            if (name === 'identifier' && segments[i - 1] === 'saleschannels') return 'web';
            if (name === 'identifier' && segments[i - 1] === 'customers') return params.customer;
            if (name === 'identifier' && segments[i - 1] === 'exporters') return 'orderlist';
            if (name === 'question' && segments[i - 1] === 'answer') return params.fileQuestion;
            return params[name];
          })
          .join('/')
          // The check-in RPC search needs its lists (`?list=`, required).
          .concat(r.path.endsWith('/checkinrpc/search/') ? `?list=${params.list}` : '')
          .concat(r.path.endsWith('/idempotency_query') ? '?key=statement-counts' : '');
        const last = segments[segments.length - 2];
        // The device's own routes (`device/info`, `device/eventselection`): one answer, for a device only.
        if (r.path.startsWith('/api/v1/device/')) return { path: r.path, url, detail: true };
        return {
          path: r.path,
          url,
          detail:
            last.startsWith(':') ||
            ['availability', 'status', 'settings', 'stats'].includes(last) ||
            r.path === DEVICE_INFO,
        };
      })
  );
}
