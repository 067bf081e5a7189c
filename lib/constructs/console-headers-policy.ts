/**
 * The console's security headers in the cloud: the very headers the local runtime serves it with
 * (consoleSecurityHeaders in web/build-console.ts, the strict Content-Security-Policy and the
 * rest), as a CloudFront response headers policy on the console's behaviours.
 *
 * CloudFront sets its security headers only through their own fields (it refuses them as custom
 * headers), so each one consoleSecurityHeaders returns is mapped to its field here; any other
 * header becomes a custom header. A security header or value this mapping cannot express fails
 * synthesis rather than being dropped. Served over HTTPS only, the console also gets HSTS.
 */
import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  type ResponseCustomHeader,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { consoleSecurityHeaders } from '../../web/build-console';

export interface ConsoleHeadersPolicyProps {
  /** Where presigned download and upload URLs point (`https://<bucket>.s3.<region>.amazonaws.com`). */
  storageOrigin: string;
  /** Strict-Transport-Security max-age; default one year. */
  hstsMaxAge?: Duration;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Splits response headers into CloudFront's security-header fields and custom headers. */
export function cloudFrontHeaders(headers: Record<string, string>): {
  securityHeadersBehavior: Mutable<ResponseSecurityHeadersBehavior>;
  customHeaders: ResponseCustomHeader[];
} {
  const security: Mutable<ResponseSecurityHeadersBehavior> = {};
  const customHeaders: ResponseCustomHeader[] = [];
  const refuse = (name: string, value: string): never => {
    throw new Error(`CloudFront cannot send the console header ${name}: ${value}`);
  };
  for (const [name, value] of Object.entries(headers)) {
    switch (name.toLowerCase()) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'x-content-type-options':
        if (value !== 'nosniff') refuse(name, value);
        security.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options': {
        const option = Object.values(HeadersFrameOption).find((o) => o === value.toUpperCase()) ?? refuse(name, value);
        security.frameOptions = { frameOption: option, override: true };
        break;
      }
      case 'referrer-policy': {
        const policy = Object.values(HeadersReferrerPolicy).find((p) => p === value) ?? refuse(name, value);
        security.referrerPolicy = { referrerPolicy: policy, override: true };
        break;
      }
      case 'strict-transport-security':
      case 'x-xss-protection':
        refuse(name, value);
        break;
      default:
        customHeaders.push({ header: name, value, override: true });
    }
  }
  return { securityHeadersBehavior: security, customHeaders };
}

export class ConsoleHeadersPolicy extends ResponseHeadersPolicy {
  constructor(scope: Construct, id: string, props: ConsoleHeadersPolicyProps) {
    const { securityHeadersBehavior, customHeaders } = cloudFrontHeaders(consoleSecurityHeaders(props.storageOrigin));
    super(scope, id, {
      comment: 'Proofline console: the CSP and security headers of web/build-console.ts',
      securityHeadersBehavior: {
        ...securityHeadersBehavior,
        strictTransportSecurity: { accessControlMaxAge: props.hstsMaxAge ?? Duration.days(365), includeSubdomains: false, override: true },
      },
      ...(customHeaders.length > 0 ? { customHeadersBehavior: { customHeaders } } : {}),
    });
  }
}
