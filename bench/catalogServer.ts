import { createApp } from '../src/app'
import { openDatabase } from '../src/db/client'
import { createUser } from '../src/modules/account/service'
import { createLoginGuard } from '../src/modules/auth/loginGuard'
import { login } from '../src/modules/auth/service'
import { benchDeps, syncBenchCatalog } from './lib/catalog'

const deps = benchDeps(openDatabase(':memory:'))
const rows = await syncBenchCatalog(deps)
await createUser(deps, { username: 'bench', password: 'bench password 1' })
const { token } = await login(deps, createLoginGuard(deps), 'bench', 'bench password 1', 'bench', undefined)
const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
console.log(`${app.server?.port} ${token} ${rows}`)
