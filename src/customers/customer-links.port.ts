import type { EntityManager } from 'typeorm';

/**
 * Port: the rows of higher contexts that name a customer (orders, reusable media). Anonymizing a customer
 * unlinks them (pretix `Customer.anonymize`: `orders.update(customer=None)`, `reusable_media.update(customer=None)`).
 * Declared here, provided as a list by the composition root (`CustomersModule.register`); mandatory.
 */
export const CUSTOMER_LINKS = Symbol('CustomerLinks');
export interface CustomerLinks {
  /** Sets the customer reference of the organizer's rows naming `identifier` to null, on the caller's `em`. */
  unlinkCustomer(em: EntityManager, organizerId: number, identifier: string): Promise<void>;
}
