import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { checkContributions, discoverClassContributions, ContributionError } from '../common/contributions';
import { Exporter, EXPORTER, ExporterDeclaration, ExportLevel } from '../tasks/exporter';
import { EXPORTER_IDENTIFIERS, exporterAt } from './export-forms.rules';

/**
 * The exporters of the process (API: their declarations check the forms of scheduled exports; worker: they run),
 * discovered at boot among the providers marked `@Exporter('<identifier>')` and checked: every identifier of
 * {@link EXPORTER_IDENTIFIERS} has exactly one provider, whose declaration carries the same identifier.
 */
@Injectable()
export class ExporterRegistry implements OnModuleInit {
  private byIdentifier = new Map<string, Exporter>();

  /** `null`: built by `of()`, without discovery. */
  constructor(@Inject(DiscoveryService) private readonly discovery: DiscoveryService | null) {}

  /** A registry of these exporters (no discovery; tests and tools). @throws ContributionError as at boot */
  static of(exporters: readonly Exporter[]): ExporterRegistry {
    const registry = new ExporterRegistry(null);
    registry.register(
      exporters.map((e) => ({ name: e.declaration.identifier, provider: e.constructor.name, value: e })),
    );
    return registry;
  }

  /** @throws ContributionError when an exporter has no provider or more than one */
  onModuleInit(): void {
    if (this.discovery) this.register(discoverClassContributions<Exporter>(this.discovery, EXPORTER));
  }

  private register(found: { name: string; provider: string; value: Exporter }[]): void {
    const checked = checkContributions('exporter', EXPORTER_IDENTIFIERS, found);
    for (const [identifier, exporter] of checked)
      if (exporter.declaration.identifier !== identifier)
        throw new ContributionError(
          `Boot check failed: exporter "${identifier}" (${exporter.constructor.name}) declares "${exporter.declaration.identifier}"`,
        );
    this.byIdentifier = checked;
  }

  /** The declarations of every exporter. */
  get declarations(): ExporterDeclaration[] {
    return [...this.byIdentifier.values()].map((e) => e.declaration);
  }

  /** The exporter `identifier`, or null. */
  get(identifier: string): Exporter | null {
    return this.byIdentifier.get(identifier) ?? null;
  }

  /** The exporter with this identifier offered at this level, or null (`"x" is not a valid choice.`). */
  at(identifier: unknown, level: ExportLevel): ExporterDeclaration | null {
    return exporterAt(this.declarations, identifier, level);
  }
}
