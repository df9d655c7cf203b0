import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { filter, ListFilters } from '../common/http/list-filters';
import { NoStore } from '../common/http/no-store';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { CreateCustomerDto, ReplaceCustomerDto, UpdateCustomerDto } from './customer.dto';
import { CustomerJson } from './customer.presenter';
import { CustomersService } from './customers.service';

/**
 * `O/customers/` (pretix `CustomerViewSet`, lookup by `identifier`). Read: `organizer.customers:read`; write and
 * `anonymize/`: `organizer.customers:write` (docs/permissions.md). No DELETE (405).
 */
@ApiTags('customers')
// Customers are personal data.
@NoStore()
@Controller('organizers/:organizer/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Get()
  @RequirePermission('organizer.customers:read')
  @ApiPaginatedResponse(CustomerJson)
  @ListFilters({
    filters: { email: filter.text('E-mail address of the customer (case-insensitive exact match).') },
  })
  listCustomers(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<CustomerJson>> {
    return this.customers.list(organizer, filters, page);
  }

  @Get(':identifier')
  @RequirePermission('organizer.customers:read')
  retrieveCustomer(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
  ): Promise<CustomerJson> {
    return this.customers.get(organizer, identifier);
  }

  @Post()
  @RequirePermission('organizer.customers:write')
  createCustomer(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCustomerDto,
  ): Promise<CustomerJson> {
    return this.customers.create(organizer, principal, body);
  }

  @Put(':identifier')
  @RequirePermission('organizer.customers:write')
  updateCustomer(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: ReplaceCustomerDto,
  ): Promise<CustomerJson> {
    return this.customers.update(organizer, identifier, principal, body, 'replace');
  }

  @Patch(':identifier')
  @RequirePermission('organizer.customers:write')
  partialUpdateCustomer(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateCustomerDto,
  ): Promise<CustomerJson> {
    return this.customers.update(organizer, identifier, principal, body, 'patch');
  }

  /** Removes the customer's personal data; 200 with the anonymized customer. */
  @Post(':identifier/anonymize')
  @HttpCode(200)
  @RequirePermission('organizer.customers:write')
  @ApiOkResponse({ type: CustomerJson })
  anonymizeCustomer(
    @CurrentOrganizer() organizer: Organizer,
    @Param('identifier') identifier: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CustomerJson> {
    return this.customers.anonymize(organizer, identifier, principal);
  }
}
