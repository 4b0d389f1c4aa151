// Text imports of migration SQL (embedded into the compiled binary by Bun).
declare module '*.sql' {
  const text: string
  export default text
}

// Swagger UI's assets, imported with `{ type: 'file' }`: Bun hands back a path (embedded when compiled).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
