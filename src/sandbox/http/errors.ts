// Service-shaped errors. Handlers throw ApiError; the server turns it into the
// JSON body the service sends (the vendor's documents: {success:false,error,error_info,data:null,additional_data:null}).

export const INFO = 'Please check developers.pipedrive.com';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly errorInfo: string = INFO,
    /** Replaces the standard body entirely (for the service's odd per-area shapes). */
    readonly bodyOverride?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
  }

  body(): Record<string, unknown> {
    return this.bodyOverride ?? { success: false, error: this.error, error_info: this.errorInfo, data: null, additional_data: null };
  }
}

/** 400 with the "<field>: <rule>" message the sandbox uses for every validation failure. */
export function invalid(field: string, rule: string): ApiError {
  return new ApiError(400, `${field}: ${rule}`, 'Validation failed. Check the named field.');
}

export function badRequest(message: string, info = INFO): ApiError {
  return new ApiError(400, message, info);
}

export function notFound(message = 'Entity was not found', info = 'Object was not found.'): ApiError {
  return new ApiError(404, message, info);
}

export function forbidden(message = 'You do not have permissions to do this.', info = INFO): ApiError {
  return new ApiError(403, message, info);
}

export function unauthorized(): ApiError {
  // Exact body seen live (the vendor's documents), including the gateway marker header.
  return new ApiError(401, 'unauthorized access', INFO,
    { success: false, error: 'unauthorized access', errorCode: 401, error_info: INFO },
    { 'x-401-by-gw': 'true' });
}

/** The service's 404 for a route it does not serve, naming the method and path that was asked for
 * (an empty name left a client nothing to go on). */
export function unknownRoute(method: string, path: string): ApiError {
  return new ApiError(404, `Unknown method ${method} ${path}.`, INFO);
}
