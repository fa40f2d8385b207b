// metav1.Status bodies exactly as kube-apiserver writes them, so clients parse our errors like real ones.

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; kind?: string; group?: string };
  code: number;
}

function status(code: number, reason: string, message: string, details?: StatusBody['details']): StatusBody {
  const body: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) body.details = details;
  return body;
}

export function unauthorized(): StatusBody {
  return status(401, 'Unauthorized', 'Unauthorized');
}

/** The RBAC denial text, e.g. `nodes is forbidden: User "x" cannot watch resource "nodes" in API group "" at the cluster scope`. */
export function forbidden(user: string, verb: string, resource: string, options: { name?: string; namespace?: string } = {}): StatusBody {
  const subject = options.name === undefined ? resource : `${resource} "${options.name}"`;
  const scope = options.namespace === undefined ? 'at the cluster scope' : `in the namespace "${options.namespace}"`;
  const message = `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "" ${scope}`;
  const details: NonNullable<StatusBody['details']> = { kind: resource };
  if (options.name !== undefined) details.name = options.name;
  return status(403, 'Forbidden', message, details);
}

export function notFound(resource: string, name?: string): StatusBody {
  if (name === undefined) return status(404, 'NotFound', 'the server could not find the requested resource');
  return status(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource });
}

export function badRequest(message: string): StatusBody {
  return status(400, 'BadRequest', message);
}

export function methodNotAllowed(): StatusBody {
  return status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/** The watch ERROR object (and list-continue failure) when a resourceVersion has been compacted away. */
export function expired(requested: string, oldest: number): StatusBody {
  return status(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

export function continueExpired(): StatusBody {
  return status(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
  );
}
