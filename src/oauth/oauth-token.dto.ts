import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * `POST /api/v1/oauth/token` form body (spec "OAuth and profile"; RFC 6749 §4.1.3, §6). Client authentication
 * by HTTP Basic (client id : client secret) or `client_id` + `client_secret` in the body.
 */
export class TokenRequestForm {
  @ApiProperty({ enum: ['authorization_code', 'refresh_token'] })
  grant_type!: string;
  /** The code from the redirect (`authorization_code`). */
  @ApiPropertyOptional()
  code?: string;
  /** The redirect URI used at authorization, exactly (`authorization_code`). */
  @ApiPropertyOptional()
  redirect_uri?: string;
  /** PKCE verifier, when the authorization request carried a `code_challenge` (`authorization_code`). */
  @ApiPropertyOptional()
  code_verifier?: string;
  /** `refresh_token` grant. */
  @ApiPropertyOptional()
  refresh_token?: string;
  /** Narrower scope for a refresh (space separated); never wider than granted. */
  @ApiPropertyOptional()
  scope?: string;
  @ApiPropertyOptional()
  client_id?: string;
  @ApiPropertyOptional()
  client_secret?: string;
}

/** `POST /api/v1/oauth/revoke_token` form body (RFC 7009 §2.1), same client authentication as the token endpoint. */
export class RevokeRequestForm {
  /** An access or refresh token. */
  @ApiProperty()
  token!: string;
  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'] })
  token_type_hint?: string;
  @ApiPropertyOptional()
  client_id?: string;
  @ApiPropertyOptional()
  client_secret?: string;
}

/** 200 of the token endpoint (spec "Authentication" 4), sent with `Cache-Control: no-store`. */
export class TokenResponseJson {
  access_token!: string;
  /** Seconds: 86400. */
  @ApiProperty({ type: 'integer', example: 86400 })
  expires_in!: number;
  @ApiProperty({ example: 'Bearer' })
  token_type!: string;
  /** Space separated: `read`, `write`, `profile`. */
  @ApiProperty({ example: 'read write' })
  scope!: string;
  refresh_token!: string;
}

/** RFC 6749 §5.2 error body. */
export class OAuthErrorJson {
  @ApiProperty({
    enum: [
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
    ],
  })
  error!: string;
  @ApiPropertyOptional()
  error_description?: string;
}
