import { Injectable } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ContributionError, Periodic } from '../common/contributions';
import { ExporterRegistry } from '../exports/exporter-registry';
import { EXPORTER_IDENTIFIERS } from '../exports/export-forms.rules';
import { Exporter, ExporterDeclaration, ExportTable } from '../tasks/exporter';
import { ExecutesTask, TaskExecutor, TaskOutcome } from '../tasks/task-executor';
import { discoverTaskExecutors, TASK_KINDS } from '../tasks/task-kinds';
import { PERIODIC_JOBS, PeriodicJobs } from './periodic-jobs';

/** Providers contributing under `name`, made by `make` (one class per name). */
const classes = <T>(names: readonly string[], make: (name: string) => T): T[] => names.map(make);

const executor = (kind: string) => {
  @Injectable()
  @ExecutesTask(kind)
  class Executor implements TaskExecutor {
    run(): Promise<TaskOutcome> {
      return Promise.resolve({});
    }
  }
  return Executor;
};

const exporter = (identifier: string, declared = identifier) => {
  const declaration: ExporterDeclaration = {
    identifier: declared,
    verboseName: identifier,
    levels: ['event'],
    permission: { event: [] },
    form() {},
  };
  @Injectable()
  @Exporter(identifier)
  class AnExporter implements Exporter {
    readonly declaration = declaration;
    tables(): Promise<ExportTable[]> {
      return Promise.resolve([]);
    }
  }
  return AnExporter;
};

const periodic = (name: string) => {
  @Injectable()
  class Job {
    @Periodic(name)
    run(): Promise<number> {
      return Promise.resolve(1);
    }
  }
  return Job;
};

/** Compiles a module of these providers and runs its init hooks (where the registries check). */
async function boot(providers: (new (...args: never[]) => unknown)[]) {
  const ref = await Test.createTestingModule({ imports: [DiscoveryModule], providers }).compile();
  try {
    await ref.init();
    return ref;
  } finally {
    await ref.close();
  }
}

describe('boot check: exactly one provider per task kind, exporter and periodic job', () => {
  it('task kinds: complete passes; a missing or duplicated executor fails, naming the kind', async () => {
    const all = classes(TASK_KINDS, executor);
    const ref = await Test.createTestingModule({ imports: [DiscoveryModule], providers: all }).compile();
    expect([...discoverTaskExecutors(ref.get(DiscoveryService)).keys()].sort()).toEqual(
      [...TASK_KINDS].sort(),
    );

    const missing = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: all.slice(1),
    }).compile();
    expect(() => discoverTaskExecutors(missing.get(DiscoveryService))).toThrow(
      new ContributionError(`Boot check failed: no provider for task kind "${TASK_KINDS[0]}"`),
    );

    const twice = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [...all, executor(TASK_KINDS[1])],
    }).compile();
    expect(() => discoverTaskExecutors(twice.get(DiscoveryService))).toThrow(
      `2 providers for task kind "${TASK_KINDS[1]}": Executor, Executor`,
    );
  });

  it('exporters: a missing, duplicated or mis-declared exporter stops the boot', async () => {
    const all = classes(EXPORTER_IDENTIFIERS, (id) => exporter(id));
    await expect(boot([ExporterRegistry, ...all])).resolves.toBeDefined();
    await expect(boot([ExporterRegistry, ...all.slice(0, -1)])).rejects.toThrow(
      `no provider for exporter "${EXPORTER_IDENTIFIERS[EXPORTER_IDENTIFIERS.length - 1]}"`,
    );
    await expect(boot([ExporterRegistry, ...all, exporter('orderlist')])).rejects.toThrow(
      '2 providers for exporter "orderlist"',
    );
    await expect(boot([ExporterRegistry, ...all, exporter('orderlists')])).rejects.toThrow(
      'unknown exporter "orderlists"',
    );
    await expect(boot([ExporterRegistry, ...all.slice(1), exporter('orderlist', 'quotas')])).rejects.toThrow(
      'exporter "orderlist" (AnExporter) declares "quotas"',
    );
  });

  it('periodic jobs: a missing or duplicated job stops the boot; the jobs run by name', async () => {
    const all = classes(PERIODIC_JOBS, periodic);
    const ref = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [PeriodicJobs, ...all],
    }).compile();
    await ref.init();
    await expect(ref.get(PeriodicJobs).run('orders.expire')).resolves.toBe(1);
    await ref.close();
    await expect(boot([PeriodicJobs, ...all.slice(1)])).rejects.toThrow(
      `no provider for periodic job "${PERIODIC_JOBS[0]}"`,
    );
    await expect(boot([PeriodicJobs, ...all, periodic('orders.expire')])).rejects.toThrow(
      '2 providers for periodic job "orders.expire": Job, Job',
    );
    expect(() => PeriodicJobs.of([])).toThrow(ContributionError);
  });
});
