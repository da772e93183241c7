// OAuth scopes of the service (the complete list of the vendor's OpenAPI).
export const ALL_SCOPES = [
  'base', 'deals:read', 'deals:full', 'mail:read', 'mail:full', 'activities:read', 'activities:full',
  'contacts:read', 'contacts:full', 'products:read', 'products:full', 'deal-fields:full', 'product-fields:full',
  'contact-fields:full', 'project-fields:full', 'projects:read', 'projects:full', 'users:read', 'recents:read',
  'search:read', 'admin', 'leads:read', 'leads:full', 'phone-integration', 'goals:read', 'goals:full',
  'video-calls', 'messengers-integration',
] as const;

/** What the sandbox's registered app asks for: everything the interface's areas need. */
export const DEFAULT_APP_SCOPES = [
  'base', 'leads:full', 'deals:full', 'contacts:full', 'admin', 'goals:full', 'projects:full', 'mail:full',
  'users:read', 'recents:read', 'search:read', 'activities:full', 'contact-fields:full', 'products:full', 'deal-fields:full',
  'product-fields:full', 'project-fields:full', 'video-calls', 'phone-integration',
];
