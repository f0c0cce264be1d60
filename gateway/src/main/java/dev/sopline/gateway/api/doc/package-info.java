/**
 * The OpenAPI schemas of the API's JSON bodies. The controllers build their bodies from the engine's views; these
 * records only describe them, with the wire's snake_case names and examples, so that the document at
 * {@code /openapi.json} can be fed to a code generator as it is. The generated-client test checks that they match.
 */
package dev.sopline.gateway.api.doc;
