import 'reflect-metadata';
import type { DiscoveryService } from '@nestjs/core';

/**
 * Contributions (architecture.md "Layout": work is declared where it lives): a context marks a provider (a task
 * executor, an exporter) or a method (a periodic job) with a name, and the process that runs them discovers the
 * marked providers at boot instead of calling a central list. This file holds what every kind of contribution
 * shares: the method marker of periodic jobs, the discovery of marked providers and the boot check that every
 * name has exactly one provider.
 */

/** One discovered contribution: the name it declared, the provider (class name) and what it contributes. */
export interface Contribution<T> {
  name: string;
  provider: string;
  value: T;
}

/**
 * The providers of the application whose class carries `key` metadata with a string value (a class decorator
 * made with `SetMetadata(key, name)`, such as `@ExecutesTask` or `@Exporter`), with that name. A provider registered
 * in two modules is found twice (and fails {@link checkContributions}); a module imported in several places counts
 * once.
 */
export function discoverClassContributions<T>(discovery: DiscoveryService, key: string): Contribution<T>[] {
  const found: Contribution<T>[] = [];
  for (const wrapper of discovery.getProviders()) {
    if (!wrapper.metatype || !wrapper.instance) continue;
    const name = Reflect.getMetadata(key, wrapper.metatype) as unknown;
    if (typeof name === 'string')
      found.push({ name, provider: wrapper.metatype.name, value: wrapper.instance as T });
  }
  return found;
}

const PERIODIC = 'ticketing:periodic';

/** A periodic job's declaration on its class: the job name and the method that runs it. */
interface PeriodicDeclaration {
  name: string;
  method: string | symbol;
}

/**
 * Marks a method (no arguments, async) as the periodic job `name` (`<context>.<job>`, e.g. `orders.expire`); the
 * worker's scheduler runs it (architecture.md "Processes"). What the method returns (a count or an object of
 * counts) goes into the scheduler's tick result and log line.
 */
export const Periodic =
  (name: string): MethodDecorator =>
  (target, method) => {
    const owner = target.constructor;
    const declared = (Reflect.getOwnMetadata(PERIODIC, owner) as PeriodicDeclaration[] | undefined) ?? [];
    Reflect.defineMetadata(PERIODIC, [...declared, { name, method }], owner);
  };

/** A periodic job bound to its owner: run it to do one round of the work. */
export type PeriodicRun = () => Promise<unknown>;

/** The periodic jobs `instance` declares with {@link Periodic}, bound to it. */
export function periodicJobsOf(instance: object): Contribution<PeriodicRun>[] {
  const declared =
    (Reflect.getMetadata(PERIODIC, instance.constructor) as PeriodicDeclaration[] | undefined) ?? [];
  return declared.map((d) => ({
    name: d.name,
    provider: instance.constructor.name,
    value: () => (instance as Record<string | symbol, () => Promise<unknown>>)[d.method](),
  }));
}

/** The periodic jobs of every provider of the application. */
export function discoverPeriodicJobs(discovery: DiscoveryService): Contribution<PeriodicRun>[] {
  const seen = new Set<unknown>();
  const found: Contribution<PeriodicRun>[] = [];
  for (const wrapper of discovery.getProviders()) {
    const instance = wrapper.instance as object | undefined;
    if (!wrapper.metatype || !instance || typeof instance !== 'object' || seen.has(instance)) continue;
    seen.add(instance);
    found.push(...periodicJobsOf(instance));
  }
  return found;
}

/** A missing, duplicated or unknown contribution, found at boot. */
export class ContributionError extends Error {}

/**
 * The boot check: every name of `required` has exactly one contribution, and no contribution declares a name
 * outside it (a typo would otherwise never run). `what` names the kind in the message (`task kind`, `exporter`,
 * `periodic job`).
 * @returns the contributions by name
 * @throws ContributionError naming every missing, duplicated or unknown name and the providers involved
 */
export function checkContributions<T>(
  what: string,
  required: readonly string[],
  found: readonly Contribution<T>[],
): Map<string, T> {
  const problems: string[] = [];
  const byName = new Map<string, Contribution<T>[]>();
  for (const c of found) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  for (const name of required) {
    const providers = byName.get(name) ?? [];
    if (providers.length === 0) problems.push(`no provider for ${what} "${name}"`);
    else if (providers.length > 1)
      problems.push(
        `${providers.length} providers for ${what} "${name}": ${providers.map((p) => p.provider).join(', ')}`,
      );
  }
  for (const [name, providers] of byName)
    if (!required.includes(name))
      problems.push(`unknown ${what} "${name}" (provided by ${providers.map((p) => p.provider).join(', ')})`);
  if (problems.length > 0) throw new ContributionError(`Boot check failed: ${problems.join('; ')}`);
  return new Map(found.map((c) => [c.name, c.value]));
}
