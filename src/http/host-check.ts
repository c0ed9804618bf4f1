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

/** "[::1]:8080" -> "::1", "Example.test.:80" -> "example.test". */
export function hostName(header: string): string {
  const trimmed = header.trim().toLowerCase();
  const name = trimmed.startsWith('[') ? trimmed.slice(1, trimmed.indexOf(']')) : trimmed.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/**
 * True for names no attacker can point at us: IP literals (a rebinding attack needs a DNS name),
 * localhost and *.localhost (RFC 6761: always loopback), *.invalid (never resolves), the public
 * URL's host and the allowed names.
 */
export function isTrustedHost(header: string, policy: HostPolicy): boolean {
  const name = hostName(header);
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.invalid')) return true;
  if (policy.publicUrl && name === hostName(new URL(policy.publicUrl).host)) return true;
  return policy.allowedHosts.some((allowed) => {
    const a = allowed.trim().toLowerCase().replace(/\.$/, '');
    if (a === '*') return true;
    return a.startsWith('.') ? name === a.slice(1) || name.endsWith(a) : name === hostName(a);
  });
}

/** Refuses requests whose Host is not ours with 403, before anything else looks at them. */
export function hostCheck(policy: HostPolicy): RequestHandler {
  return (req, _res, next) => {
    const host = req.headers.host;
    // HTTP/1.0 clients may send no Host; browsers always do.
    if (host === undefined || isTrustedHost(host, policy)) return next();
    const name = hostName(host);
    next(
      new HttpError(
        403,
        `Host "${name}" is not allowed (DNS rebinding protection); start csp-mock with --allow-host ${name} (option allowedHosts) to allow it`,
      ),
    );
  };
}
