import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { Event } from '../../organizers/event.entity';
import { Organizer } from '../../organizers/organizer.entity';
import { NO_ORDER_EMAIL, ResendLinkService } from './resend-link.service';

/** `POST E/orders/{code}/resend_link/` (compat §4.4 "Actions"), permission `event.orders:write`. */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orders/:code')
export class ResendLinkController {
  constructor(private readonly service: ResendLinkService) {}

  /** Mails the link to the order's page to the order's e-mail. 204 without body. */
  @Post('resend_link')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'The mail is queued.' })
  @ApiBadRequestResponse({ description: `\`{"detail": "${NO_ORDER_EMAIL}"}\`` })
  resendOrderLink(
    @CurrentEvent() event: Event,
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
  ): Promise<void> {
    return this.service.resend(event, organizer.slug, principal, code);
  }
}
