import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Every page form carries the CSRF token of the page it came from. */
export class CsrfForm {
  /** The hidden CSRF token of the page. */
  @ApiProperty()
  csrf_token!: string;
}

/** `POST /api/v1/oauth/login`. */
export class LoginForm extends CsrfForm {
  @ApiProperty()
  email!: string;
  @ApiProperty()
  password!: string;
  /** Path of this service to continue to (the authorization URL). */
  @ApiPropertyOptional()
  next?: string;
}

/** `POST /api/v1/oauth/authorize`: the authorization request as hidden inputs, and the user's decision. */
export class ConsentForm extends CsrfForm {
  @ApiProperty({ example: 'code' })
  response_type!: string;
  @ApiProperty()
  client_id!: string;
  @ApiProperty()
  redirect_uri!: string;
  @ApiPropertyOptional({ example: 'read write' })
  scope?: string;
  @ApiPropertyOptional()
  state?: string;
  @ApiPropertyOptional()
  code_challenge?: string;
  @ApiPropertyOptional({ enum: ['S256'] })
  code_challenge_method?: string;
  /** Organizer slugs granted (one checkbox each; repeated field). */
  @ApiPropertyOptional({ type: [String] })
  organizers?: string[];
  @ApiPropertyOptional({ enum: ['1'] })
  allow?: string;
  @ApiPropertyOptional({ enum: ['1'] })
  deny?: string;
}

/** `POST /api/v1/oauth/applications/`. */
export class RegisterApplicationForm extends CsrfForm {
  @ApiProperty({ maxLength: 255 })
  name!: string;
  /** Redirect URIs, one per line (https, or http for 127.0.0.1/localhost). */
  @ApiProperty()
  redirect_uris!: string;
}
