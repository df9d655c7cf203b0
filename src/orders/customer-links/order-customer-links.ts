import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CustomerLinks } from '../../customers/customer-links.port';
import { OrderCustomerQueries } from './order-customer.queries';

/**
 * The orders' part of the customers context's `CUSTOMER_LINKS` port: an anonymized customer's orders no longer name
 * it (pretix `Customer.anonymize`: `orders.update(customer=None)`). One statement on the caller's `em`.
 */
@Injectable()
export class OrderCustomerLinks implements CustomerLinks {
  constructor(private readonly queries: OrderCustomerQueries) {}

  unlinkCustomer(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    return this.queries.unlink(em, organizerId, identifier);
  }
}

/** Exports {@link OrderCustomerLinks}; the composition root lists it in the `CUSTOMER_LINKS` port. */
@Module({ providers: [OrderCustomerLinks, OrderCustomerQueries], exports: [OrderCustomerLinks] })
export class OrderCustomerLinksModule {}
