import { ItemMetaPropertiesModule } from '../catalogue/item-meta-properties/item-meta-properties.module';
import { SubEventPricesModule } from '../catalogue/subevent-prices/subevent-prices.module';
import { SeatingModule } from '../seating/seating.module';
import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { GiftCardsCoreModule } from '../giftcards/giftcards-core.module';
import { MailModule } from '../mail/mail.module';
import { QuotaEngineModule } from '../orders/quota-engine/quota-engine.module';
import { SalesUsageModule } from '../orders/sales-usage/sales-usage.module';
import { SeatHoldsModule } from '../orders/seats/seat-holds.module';
import { SalesChannelReferencesModule } from '../catalogue/sales-channel-references';
import { OrganizersModule } from '../organizers/organizers.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../auth/users.module';
import { OAuthCoreModule } from '../oauth/oauth-core.module';
import { CreateOAuthApplicationCommand } from './oauth-commands';
import { AcceptGiftCardsCommand, BootstrapCommand, CheckQuotasCommand, CreateUserCommand } from './commands';

/** The admin CLI (`npm run cli -- <command>`): administration that has no API. */
@Module({
  imports: [
    ConfigModule.forRoot(),
    DatabaseModule,
    UsersModule,
    AuditModule,
    MailModule,
    OrganizersModule.register(
      SalesUsageModule,
      SeatingModule.register(SeatHoldsModule),
      SubEventPricesModule,
      ItemMetaPropertiesModule,
      SalesChannelReferencesModule,
    ),
    TeamsModule,
    GiftCardsCoreModule,
    QuotaEngineModule,
    OAuthCoreModule,
  ],
  providers: [
    BootstrapCommand,
    CreateUserCommand,
    AcceptGiftCardsCommand,
    CheckQuotasCommand,
    CreateOAuthApplicationCommand,
  ],
})
export class CliModule {}
