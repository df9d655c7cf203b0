import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SchedulerProcessor } from '../src/scheduler/scheduler.processor';
import { startTestApp, TestApp } from './harness';

/** The scheduler tick's housekeeping, run directly against the test database. */
describe('scheduler tick', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('purges expired idempotency records and keeps live ones', async () => {
    await t.db.query(
      `INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, expires) VALUES
         (repeat('a', 64), 'old', repeat('0', 64), 201, now() - interval '1 minute'),
         (repeat('a', 64), 'new', repeat('0', 64), 201, now() + interval '1 hour')`,
    );
    const processor = new SchedulerProcessor(t.app.get<DataSource>(getDataSourceToken()));
    const result = await processor.tick({ id: 'test' } as never);
    expect(typeof result.at).toBe('string');
    const rows: { key: string }[] = await t.db.query('SELECT key FROM idempotency_record ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['new']);
  });
});
