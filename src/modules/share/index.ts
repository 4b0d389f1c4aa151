// Sharing. The public page /s/<shareToken> is the website's read-only tracker (src/modules/web),
// which reads the shared character through the cookie-free share API.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'

export function shareModule(_deps: AppDeps) {
  return new Elysia({ name: 'share' })
}
