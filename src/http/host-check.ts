import type { RequestHandler } from 'express';
import { isIP } from 'node:net';
import { HttpError } from './errors.js';

/**
 * Which Host headers the server answers (the defence against DNS rebinding, where a web page
 * makes the browser send its requests here under the attacker's own name).
 */
export interface HostPolicy {
  /** Exact names; ".example.org" also allows every subdomain; "*" turns the check off. */
  allowedHosts: readonly string[];
  /** --public-url: its host is ours. */
  publicUrl?: string;
}

/** A bracketed IPv6 literal, then nothing or ":port" (RFC 7230 5.4, RFC 3986 3.2.2). */
const IP_LITERAL = /^\[([0-9a-f:.]+)\](?::\d*)?$/;
/** A name or IPv4 address, then nothing or ":port": the characters of a DNS name (browsers send IDNs as punycode). */
const NAME = /^([a-z0-9._~-]+)(?::\d*)?$/;

/**
 * The name a Host header names, lower case without a trailing dot: "[::1]:8080" -> "::1",
 * "Example.test.:80" -> "example.test"; undefined when the header is not host[:port] ("[::1]evil.example",
 * "a:1:2", "::1", spaces), which the server refuses before the value can reach a link.
 */
export function hostName(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  const literal = IP_LITERAL.exec(value);
  if (literal) return isIP(literal[1]!) === 6 ? literal[1] : undefined;
  const name = NAME.exec(value)?.[1]?.replace(/\.$/, '');
  return name ? name : undefined;
}

/**
 * True for names no attacker can point at us: IP literals (a rebinding attack needs a DNS name),
 * localhost and *.localhost (RFC 6761: always loopback), *.invalid (never resolves), the public
 * URL's host and the allowed names.
 */
function isTrustedHost(header: string, policy: HostPolicy): boolean {
  const name = hostName(header);
  if (name === undefined) return false;
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.invalid')) return true;
  if (policy.publicUrl && name === hostName(new URL(policy.publicUrl).host)) return true;
  return policy.allowedHosts.some((allowed) => {
    const a = allowed.trim().toLowerCase().replace(/\.$/, '');
    if (a === '*') return true;
    return a.startsWith('.') ? name === a.slice(1) || name.endsWith(a) : name === (hostName(a) ?? a);
  });
}

/**
 * Refuses requests whose Host is not ours with 403, and a Host that is not host[:port] with 400 (RFC
 * 7230 5.4), even when every name is allowed: the Host goes into the links of the answers.
 */
export function hostCheck(policy: HostPolicy): RequestHandler {
  // The last Host found trusted: a client sends the same one on every request.
  let trusted: string | undefined;
  return (req, _res, next) => {
    const host = req.headers.host;
    // HTTP/1.0 clients may send no Host; browsers always do.
    if (host === undefined || host === trusted) return next();
    if (isTrustedHost(host, policy)) {
      trusted = host;
      return next();
    }
    const name = hostName(host);
    if (name === undefined) {
      return next(
        new HttpError(400, `Host ${JSON.stringify(host)} is not a host name or address with an optional :port`),
      );
    }
    next(
      new HttpError(
        403,
        `Host "${name}" is not allowed (DNS rebinding protection); start csp-mock with --allow-host ${name} (option allowedHosts) to allow it`,
      ),
    );
  };
}
