import { ItemMetaPropertiesModule } from '../src/catalogue/item-meta-properties/item-meta-properties.module';
import { SalesChannelReferencesModule } from '../src/catalogue/sales-channel-references';
import { SeatingModule } from '../src/seating/seating.module';
import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AuditModule } from '../src/audit/audit.module';
import { CATALOGUE_PORTS } from '../src/catalogue/catalogue-ports';
import { CatalogueModule } from '../src/catalogue/catalogue.module';
import { ITEM_USAGE } from '../src/catalogue/items/item-usage.port';
import { ConfigModule } from '../src/config/config.module';
import { DatabaseModule } from '../src/database/database.module';
import { OrdersCoreModule } from '../src/orders/orders-core.module';
import { OrganizersModule } from '../src/organizers/organizers.module';
import { SubEventPricesModule } from '../src/catalogue/subevent-prices/subevent-prices.module';
import { startTestApp, TestApp } from './harness';

/**
 * The ports lower contexts declare are mandatory (style.md "In this codebase: stop these" 2): a module arrangement
 * without a provider refuses to boot, instead of silently allowing the deletion of ordered items or events with
 * orders.
 */
describe('mandatory ports', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Compiles a module graph on the test app's database; resolves to the boot error, or null. */
  async function bootError(...imports: (Type<unknown> | DynamicModule)[]): Promise<string | null> {
    const url = (t.db.options as PostgresConnectionOptions).url!;
    try {
      const module = await Test.createTestingModule({
        imports: [
          ConfigModule.forRoot({ databaseUrl: url, logLevel: 'error' }),
          DatabaseModule,
          AuditModule,
          ...imports,
        ],
      })
        .setLogger({ log() {}, error() {}, warn() {} })
        .compile();
      await module.close();
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** A module providing every catalogue port but the ones left out, with stand-ins. */
  function portsWithout(...missing: symbol[]) {
    const providers: Provider[] = CATALOGUE_PORTS.filter((p) => !missing.includes(p)).map((provide) => ({
      provide,
      useValue: {},
    }));
    @Module({ providers, exports: providers.map((p) => (p as { provide: symbol }).provide) })
    class PartialPorts {}
    return PartialPorts;
  }

  it('boots the catalogue and the tenancy roots with the orders context as their provider', async () => {
    expect(
      await bootError(
        CatalogueModule.register(OrdersCoreModule),
        OrganizersModule.register(
          OrdersCoreModule,
          SeatingModule.register(OrdersCoreModule),
          SubEventPricesModule,
          ItemMetaPropertiesModule,
          SalesChannelReferencesModule,
        ),
      ),
    ).toBeNull();
  });

  it('refuses to boot the catalogue without the item usage port', async () => {
    const error = await bootError(CatalogueModule.register(portsWithout(ITEM_USAGE)));
    expect(error).toMatch(/can't resolve dependencies of the (ItemsService|VariationsService)/);
    expect(error).toContain('Symbol(ItemUsage)');
  });

  it('refuses to boot the tenancy roots without the event usage port', async () => {
    @Module({})
    class NoPorts {}
    const error = await bootError(OrganizersModule.register(NoPorts));
    expect(error).toMatch(/can't resolve dependencies of the EventsService/);
    expect(error).toContain('Symbol(EventUsage)');
  });
});
