import { CUSTOMER_CONTENT_TYPE, recordCustomerAction } from './customer-log';
import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import bcrypt from 'bcryptjs';
import { randomBytes } from 'crypto';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { refIds, type ObjectRef } from '../common/listing/object-refs';
import type { Principal } from '../auth/principal';
import { ValidationFailed } from '../common/errors';
import { findOrNotFound } from '../common/persistence/find';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { uniqueAsValidation } from '../common/persistence/unique';
import { Complete, mergeInput, WriteMode } from '../common/persistence/write';
import { AppConfig } from '../config/app-config';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { Organizer } from '../organizers/organizer.entity';
import type { CreateCustomerDto, ReplaceCustomerDto } from './customer.dto';
import { Customer } from './customer.entity';
import { CUSTOMER_LINKS, CustomerLinks } from './customer-links.port';
import { CustomerJson, toCustomerJson } from './customer.presenter';
import { CustomerQueries } from './customer.queries';
import {
  IDENTIFIER_LENGTH,
  nameOf,
  normalizedNameParts,
  randomIdentifier,
  registrationMail,
} from './customer.rules';
import { Membership } from './membership.entity';

/** pretix's message for an e-mail address another customer of the organizer has (`validate_email`). */
export const EMAIL_TAKEN = 'An account with this email address is already registered.';

/** Audit content type of customers (pretix model name); memberships log on their customer. */

type CustomerInput = Complete<ReplaceCustomerDto>;

/** Defaults of the changeable fields (pretix model defaults); PUT resets omitted ones to these. */
const CUSTOMER_DEFAULTS: CustomerInput = {
  external_identifier: null,
  email: null,
  phone: null,
  name_parts: {},
  is_active: true,
  is_verified: true,
  locale: 'en',
  notes: null,
};

/** Identifier attempts per length before the length grows by one (pretix `assign_identifier`). */
const ATTEMPTS_PER_LENGTH = 20;

/**
 * Customer accounts of one organizer (pretix `CustomerViewSet`): list, detail by identifier, create, update,
 * anonymize; no DELETE. Every query is scoped by the organizer the permission guard resolved. Audit:
 * `pretix.customer.created|changed|anonymized` with the identifier in the data (the webhook payload's `customer`).
 */
@Injectable()
@RendersChanges('customer')
export class CustomersService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: CustomerQueries,
    private readonly mail: MailOutboxService,
    private readonly config: AppConfig,
    @Inject(CUSTOMER_LINKS) private readonly links: CustomerLinks[],
  ) {}

  /** One page; filter `email` (case-insensitive exact). One statement whatever the page size. */
  list(organizer: Organizer, filters: QueryFilters, page: PageRequest): Promise<Paginated<CustomerJson>> {
    return this.queries.customerPage(this.db, organizer.id, filters, page, (rows) =>
      rows.map(toCustomerJson),
    );
  }

  /** The change feed's customers (by database id, the log's object id) as {@link get} answers them. One statement. */
  async renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const found = await this.db.find(Customer, {
      where: { id: In(refIds(refs)), organizerId: scope.organizer.id },
    });
    return new Map(found.map((c) => [c.id, toCustomerJson(c)]));
  }

  /** @throws NotFound for an identifier that is not a customer of this organizer */
  async get(organizer: Organizer, identifier: string): Promise<CustomerJson> {
    return toCustomerJson(await this.load(this.db, organizer, identifier, false));
  }

  /**
   * Creates a customer with a generated identifier (a sent `identifier` is ignored); `password` is stored as a
   * bcrypt hash; with `send_email` and an e-mail address, pretix's registration mail (activation link) goes to the
   * outbox in the same transaction. Logs `pretix.customer.created`.
   * @throws ValidationFailed (400) `{"email": [EMAIL_TAKEN]}` for an address another customer of the organizer has
   */
  async create(organizer: Organizer, principal: Principal, body: CreateCustomerDto): Promise<CustomerJson> {
    const { send_email: sendEmail, password, ...fields } = body;
    const input = mergeInput(fields, CUSTOMER_DEFAULTS);
    const passwordHash = typeof password === 'string' ? await bcrypt.hash(password, 10) : null;
    const customer = await uniqueAsValidation('uq_customer_organizer_email', 'email', EMAIL_TAKEN, () =>
      this.db.transaction(async (em) => {
        await this.checkEmail(em, organizer, input.email, null);
        const customer = em.create(Customer, {
          organizerId: organizer.id,
          identifier: await this.freeIdentifier(em),
          passwordHash,
        });
        apply(customer, input);
        await em.save(customer);
        await recordCustomerAction(
          this.audit,
          em,
          principal,
          organizer,
          customer,
          'pretix.customer.created',
          {
            ...fields,
            send_email: sendEmail ?? false,
          },
        );
        if (sendEmail === true && customer.email) await this.sendRegistrationMail(em, organizer, customer);
        return em.findOneByOrFail(Customer, { id: customer.id });
      }),
    );
    return toCustomerJson(customer);
  }

  /**
   * PUT (`replace`: omitted fields reset to their defaults) or PATCH (`patch`: only the fields sent). The
   * identifier never changes. Logs `pretix.customer.changed` (as pretix, on every update).
   * @throws NotFound for an identifier that is not a customer of this organizer
   * @throws ValidationFailed (400) `{"email": [EMAIL_TAKEN]}`
   */
  async update(
    organizer: Organizer,
    identifier: string,
    principal: Principal,
    body: Partial<ReplaceCustomerDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<CustomerJson> {
    const customer = await uniqueAsValidation('uq_customer_organizer_email', 'email', EMAIL_TAKEN, () =>
      this.db.transaction(async (em) => {
        const customer = await this.load(em, organizer, identifier, true);
        const input = mergeInput(body, mode === 'patch' ? inputOf(customer) : CUSTOMER_DEFAULTS);
        await this.checkEmail(em, organizer, input.email, customer.id);
        apply(customer, input);
        customer.lastModified = new Date();
        await em.save(customer);
        await recordCustomerAction(
          this.audit,
          em,
          principal,
          organizer,
          customer,
          'pretix.customer.changed',
          { ...body },
        );
        return customer;
      }),
    );
    return toCustomerJson(customer);
  }

  /**
   * Anonymizes a customer (pretix `Customer.anonymize`): deactivated and unverified; name, e-mail, phone,
   * external identifier and notes removed; the data of its log entries emptied; its memberships lose the
   * attendee name; orders and reusable media no longer name it ({@link CustomerLinks}). Logs
   * `pretix.customer.anonymized`. Answers the anonymized customer.
   * @throws NotFound for an identifier that is not a customer of this organizer
   */
  async anonymize(organizer: Organizer, identifier: string, principal: Principal): Promise<CustomerJson> {
    const customer = await this.db.transaction(async (em) => {
      const customer = await this.load(em, organizer, identifier, true);
      apply(customer, {
        ...inputOf(customer),
        is_active: false,
        is_verified: false,
        name_parts: {},
        email: null,
        phone: null,
        external_identifier: null,
        notes: null,
      });
      customer.lastModified = new Date();
      await em.save(customer);
      await em.update(
        Membership,
        { organizerId: organizer.id, customerId: customer.id },
        { attendeeNameParts: null },
      );
      for (const links of this.links) await links.unlinkCustomer(em, organizer.id, customer.identifier);
      await this.audit.shredData(em, organizer.id, CUSTOMER_CONTENT_TYPE, customer.id);
      await recordCustomerAction(
        this.audit,
        em,
        principal,
        organizer,
        customer,
        'pretix.customer.anonymized',
        {},
      );
      return customer;
    });
    return toCustomerJson(customer);
  }

  /**
   * The organizer's customer by identifier, locked for the transaction when `lock` is set.
   * @throws NotFound
   */
  private load(
    em: EntityManager,
    organizer: Organizer,
    identifier: string,
    lock: boolean,
  ): Promise<Customer> {
    return findOrNotFound(
      em,
      Customer,
      { organizerId: organizer.id, identifier: identifier.length <= 190 ? identifier : '' },
      lock,
    );
  }

  /** @throws ValidationFailed `{"email": [EMAIL_TAKEN]}` when another customer of the organizer has `email` */
  private async checkEmail(
    em: EntityManager,
    organizer: Organizer,
    email: string | null,
    exceptId: number | null,
  ): Promise<void> {
    if (email && (await this.queries.emailTaken(em, organizer.id, email.toLowerCase(), exceptId)))
      throw ValidationFailed.field('email', EMAIL_TAKEN);
  }

  /** A generated identifier no customer has (pretix: 20 attempts per length, then one character more). */
  private async freeIdentifier(em: EntityManager): Promise<string> {
    for (let length = IDENTIFIER_LENGTH; ; length++) {
      for (let attempt = 0; attempt < ATTEMPTS_PER_LENGTH; attempt++) {
        const identifier = randomIdentifier(length);
        if (!(await this.queries.identifierTaken(em, identifier))) return identifier;
      }
    }
  }

  /**
   * pretix's registration mail with the shop's activation link (`{site}/{organizer}/account/activate?id=…&token=…`;
   * the token is random: this service has no shop that checks it), through the outbox.
   */
  private async sendRegistrationMail(
    em: EntityManager,
    organizer: Organizer,
    customer: Customer,
  ): Promise<void> {
    const token = randomBytes(20).toString('hex');
    const url =
      `${this.config.siteUrl}/${organizer.slug}/account/activate` +
      `?id=${encodeURIComponent(customer.identifier)}&token=${token}`;
    const { subject, body } = registrationMail(organizer.name, customer.nameCached, url);
    await this.mail.enqueue(em, {
      organizerId: organizer.id,
      eventId: null,
      to: customer.email!,
      subject,
      body,
    });
  }
}

/** The changeable fields of a customer in wire form. */
function inputOf(c: Customer): CustomerInput {
  return {
    external_identifier: c.externalIdentifier,
    email: c.email,
    phone: c.phone,
    name_parts: c.nameParts,
    is_active: c.isActive,
    is_verified: c.isVerified,
    locale: c.locale,
    notes: c.notes,
  };
}

/** Applies merged input: the e-mail lower-cased (pretix `Customer.save`), the name built from the parts. */
function apply(c: Customer, input: CustomerInput): void {
  c.externalIdentifier = input.external_identifier;
  c.email = input.email ? input.email.toLowerCase() : null;
  c.phone = input.phone || null;
  c.nameParts = normalizedNameParts(input.name_parts);
  c.nameCached = nameOf(c.nameParts);
  c.isActive = input.is_active;
  c.isVerified = input.is_verified;
  c.locale = input.locale;
  c.notes = input.notes;
}
