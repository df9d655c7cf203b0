import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CUSTOMER_LINKS, type CustomerLinks } from '../customers/customer-links.port';
import { ReusableMediumQueries } from './reusable-medium.queries';
import { OrderCustomerLinks, OrderCustomerLinksModule } from '../orders/customer-links/order-customer-links';

/**
 * The reusable media's part of the customers context's `CUSTOMER_LINKS` port: an anonymized customer's media no
 * longer name it (pretix `Customer.anonymize`: `reusable_media.update(customer=None)`). One statement.
 */
@Injectable()
export class MediumCustomerLinks implements CustomerLinks {
  constructor(private readonly queries: ReusableMediumQueries) {}

  unlinkCustomer(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    return this.queries.unlinkCustomer(em, organizerId, identifier);
  }
}

/**
 * Provides the customers context's `CUSTOMER_LINKS` port: every context above it whose rows name customers (orders,
 * reusable media). It lives in the highest of them (media sits above orders), so it may import both;
 * `app.module.ts` hands it to `CustomersModule.register`.
 */
@Module({
  imports: [OrderCustomerLinksModule],
  providers: [
    MediumCustomerLinks,
    ReusableMediumQueries,
    {
      provide: CUSTOMER_LINKS,
      useFactory: (orders: OrderCustomerLinks, media: MediumCustomerLinks): CustomerLinks[] => [
        orders,
        media,
      ],
      inject: [OrderCustomerLinks, MediumCustomerLinks],
    },
  ],
  exports: [CUSTOMER_LINKS],
})
export class CustomerLinksModule {}
