import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { CommonModule } from './common/common.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { MailModule } from './mail/mail.module';
import { CartsModule } from './orders/carts.module';
import { OrderActionsModule } from './orders/order-actions.module';
import { OrdersApiModule } from './orders/orders-api.module';
import { OrdersModule } from './orders/orders.module';
import { OrganizersModule } from './organizers/organizers.module';
import { BullRootModule } from './queues';
import { TeamsModule } from './teams/teams.module';

/** The API process: every bounded context with its controllers. */
@Module({})
export class AppModule {
  static forRoot(overrides: Partial<AppConfig> = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(overrides),
        DatabaseModule,
        BullRootModule,
        CommonModule,
        AuditModule,
        MailModule,
        AuthModule.forRoot([TeamsModule]),
        OrganizersModule,
        TeamsModule,
        CatalogueModule,
        OrdersModule,
        OrdersApiModule,
        OrderActionsModule,
        CartsModule,
      ],
    };
  }
}
