import { ItemMetaPropertiesModule } from './catalogue/item-meta-properties/item-meta-properties.module';
import { SubEventPricesModule } from './catalogue/subevent-prices/subevent-prices.module';
import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { CheckinModule } from './checkin/checkin.module';
import { CommonModule } from './common/common.module';
import { RequestLoggingModule } from './common/http/request-logging';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DevicesModule } from './devices/devices.module';
import { ExportsModule } from './exports/exports.module';
import { HealthModule } from './health/health.module';
import { GiftCardLedgerModule } from './giftcards/giftcard-ledger.module';
import { GiftCardsModule } from './giftcards/giftcards.module';
import { InvoicesModule } from './invoices/invoices.module';
import { OutgoingMailsModule } from './mail/outgoing-mails.module';
import { MediaModule } from './media/media.module';
import { DeviceEventSelectionModule } from './devices/event-selection/event-selection.module';
import { CustomerLinksModule } from './media/customer-links.module';
import { CustomersModule } from './customers/customers.module';
import { SalesPortsModule } from './orders/sales-ports.module';
import { SalesUsageModule } from './orders/sales-usage/sales-usage.module';
import { SeatHoldsModule } from './orders/seats/seat-holds.module';
import { OrdersModule } from './orders/orders.module';
import { SalesChannelReferencesModule } from './catalogue/sales-channel-references';
import { OrganizersModule } from './organizers/organizers.module';
import { TasksModule } from './tasks/tasks.module';
import { UploadsModule } from './tasks/uploads/uploads.module';
import { WaitingListModule } from './waitinglist/waiting-list.module';
import { SendmailRulesModule } from './sendmail-rules/sendmail-rules.module';
import { ShredderModule } from './shredder/shredder.module';
import { SeatingModule } from './seating/seating.module';
import { TeamsModule } from './teams/teams.module';
import { TicketsModule } from './tickets/tickets.module';
import { OAuthCoreModule } from './oauth/oauth-core.module';
import { OAuthModule } from './oauth/oauth.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { CheckinStreamPublishModule } from './sync/checkin-stream-publish.module';
import { ChangeFeedModule } from './sync/changes/changes.module';
import { SyncModule } from './sync/sync.module';

/**
 * The API process: every bounded context with its controllers. This is the composition root of the ports: the
 * orders context answers the ports the lower contexts declare, and its port modules are handed to their `register`
 * here (SalesPortsModule: the catalogue's; SalesUsageModule: the tenancy roots' event usage; SeatHoldsModule: the
 * seating's seat holders; GiftCardLedgerModule: the orders' gift card ledger, to OrdersModule; CustomerLinksModule:
 * the orders' and media's customer references, to CustomersModule; CheckinStreamPublishModule: the sync context's
 * live-stream publisher, the check-in context's `CHECKIN_EVENTS`), so no lower context
 * imports a higher one and no module is global.
 */
@Module({})
export class AppModule {
  static forRoot(overrides: Partial<AppConfig> = {}): DynamicModule {
    // One instance for both places that import it (its routes once).
    const seating = SeatingModule.register(SeatHoldsModule);
    const checkin = CheckinModule.register(CheckinStreamPublishModule);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(overrides),
        DatabaseModule,
        TasksModule,
        CommonModule,
        RequestLoggingModule,
        AuditModule,
        AuthModule.forRoot([TeamsModule, OAuthCoreModule, DevicesModule]),
        OrganizersModule.register(
          SalesUsageModule,
          seating,
          SubEventPricesModule,
          ItemMetaPropertiesModule,
          SalesChannelReferencesModule,
        ),
        TeamsModule,
        OAuthModule,
        CatalogueModule.register(SalesPortsModule),
        seating,
        CustomersModule.register(CustomerLinksModule),
        OrdersModule.register(GiftCardLedgerModule),
        checkin,
        GiftCardsModule,
        InvoicesModule,
        TicketsModule,
        ExportsModule,
        MediaModule,
        DeviceEventSelectionModule.register(checkin),
        OutgoingMailsModule,
        SendmailRulesModule,
        WaitingListModule.register(SalesPortsModule),
        ShredderModule,
        WebhooksModule,
        HealthModule,
        SyncModule,
        ChangeFeedModule,
        UploadsModule,
        DevicesModule,
      ],
    };
  }
}
