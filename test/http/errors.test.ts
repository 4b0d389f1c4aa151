// The typed errors services throw: each carries its status (and Retry-After where it has one),
// and is told apart from the others by `instanceof`.
import { expect, test } from 'bun:test'
import {
  BadRequest,
  Conflict,
  Forbidden,
  HttpError,
  NotFound,
  PayloadTooLarge,
  RequestTimeout,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
} from '../../src/http/errors'

const classes = [BadRequest, Unauthorized, Forbidden, NotFound, RequestTimeout, Conflict, PayloadTooLarge]

test.each([
  [BadRequest, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [RequestTimeout, 408],
  [Conflict, 409],
  [PayloadTooLarge, 413],
] as const)('%p is %p, with its sentence and no headers', (Class, status) => {
  const error = new Class('Why it failed.')
  expect(error).toBeInstanceOf(HttpError)
  expect(error).toBeInstanceOf(Error)
  expect({ status: error.status, message: error.message, headers: error.headers }).toEqual({
    status,
    message: 'Why it failed.',
    headers: {},
  })
  expect(classes.filter((other) => error instanceof other)).toEqual([Class])
})

test.each([
  [TooManyRequests, 429],
  [ServiceUnavailable, 503],
] as const)('%p is %p with Retry-After', (Class, status) => {
  const error = new Class('Wait.', 30)
  expect(error).toBeInstanceOf(HttpError)
  expect({ status: error.status, headers: error.headers }).toEqual({ status, headers: { 'retry-after': '30' } })
  expect(error instanceof (Class === TooManyRequests ? ServiceUnavailable : TooManyRequests)).toBe(false)
})
