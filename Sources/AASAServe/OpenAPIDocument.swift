import AASAModel
import Foundation

/// serve's API as OpenAPI 3.1: answered at `/api/v1/openapi.json`, and kept in the repository
/// as `docs/openapi.json` (a test holds the two equal, and holds the server to what it says).
/// Edit it here.
public enum OpenAPIDocument {
    public static let path = "/api/v1/openapi.json"

    /// Each association kind's check parameter (`?WORD=`), from the registry: a flag kind's
    /// takes `on`, the others' repeat. In the document's own layout.
    static var kindParameters: String {
        AssociationKinds.all.map { kind in
            let schema =
                kind.formPlaceholder == AssociationKind.flagPlaceholder
                ? """
                "schema": {
                  "type": "string",
                  "enum": [
                    "\(AssociationKind.flagPlaceholder)"
                  ]
                }
                """
                : """
                "schema": {
                  "$ref": "#/components/schemas/repeatedValues"
                },
                "style": "form",
                "explode": true
                """
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let description = String(decoding: (try? encoder.encode(kind.apiParameter)) ?? Data(), as: UTF8.self)
            let lines =
                [
                    "{", "  \"name\": \"\(kind.word)\",", "  \"in\": \"query\",", "  \"required\": false,",
                    "  \"description\": \(description),",
                ] + schema.split(separator: "\n").map { "  " + $0 } + ["}"]
            return lines.map { String(repeating: " ", count: 10) + $0 }.joined(separator: "\n")
        }.joined(separator: ",\n")
    }

    public static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "aasa-audit serve",
            "version": "1",
            "description": "The API of `aasa-audit serve` (docs/serve.md). Every answer carries Content-Security-Policy, X-Content-Type-Options, Referrer-Policy and X-Frame-Options. When the server has a token (\#(OptionName.tokenFile)), \#(Route.tokenScope) need `Authorization: Bearer TOKEN`. The domain record is the report schema's (report.schema.json, $defs/domain)."
          },
          "servers": [
            {
              "url": "/",
              "description": "Relative to where the server is reached: http://127.0.0.1:8080 by default (serve \#(OptionName.listen)), or the reverse proxy in front of it."
            }
          ],
          "security": [
            {},
            {
              "bearer": []
            }
          ],
          "paths": {
            "/api/v1/check": {
              "get": {
                "summary": "Check one domain now",
                "description": "Fetches the domain's files as `check` does (as Apple's bot, the root, Apple's CDN) and answers its record. Limited per client (429) and in flight (503). A host whose addresses are not public is refused (403) without a connection, unless the server was started with \#(OptionName.allowNetwork).",
                "parameters": [
                  {
                    "name": "domain",
                    "in": "query",
                    "required": true,
                    "description": "The host to check, in any form `check` takes: example.com, https://example.com/path, applinks:example.com.",
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  },
                  {
                    "name": "app-id",
                    "in": "query",
                    "required": false,
                    "description": "An app ID the file must name (repeatable, at most 20): in applinks, or in the section of the service it names (webcredentials:TEAMID.bundle, appclips:TEAMID.bundle.Clip) or the domain's entitlement entry names (webcredentials:example.com).",
                    "schema": {
                      "$ref": "#/components/schemas/repeatedValues"
                    },
                    "style": "form",
                    "explode": true
                  },
                  {
                    "name": "ios",
                    "in": "query",
                    "required": false,
                    "description": "none: the domain serves no AASA (as ios:none in domains.txt). No AASA is asked for, from the origin or Apple's CDN; its other files are audited: those the other parameters name, else each one a domain without an AASA is audited for, as the nightly run does. Not with app-id.",
                    "schema": {
                      "type": "string",
                      "enum": [
                        "none"
                      ]
                    }
                  },
        \#(kindParameters)
                ],
                "responses": {
                  "200": {
                    "description": "The domain's record.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Domain"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "The domain, an app ID or another file's parameter is not valid (the error says which and why).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "description": "The host resolves only to addresses the server does not fetch (private, loopback, link-local).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "421": {
                    "$ref": "#/components/responses/MisdirectedRequest"
                  },
                  "429": {
                    "description": "This client started too many checks (\#(OptionName.checksPerMinute)). Or too many requests without the right token (10 a minute per client).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "503": {
                    "description": "\#(OptionName.maximumChecks) checks are running.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/latest": {
              "get": {
                "summary": "The newest run's report",
                "description": "latest.json of \#(OptionName.out), as the audit wrote it.",
                "responses": {
                  "200": {
                    "description": "The report (report.schema.json).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Report"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "No run has finished in \#(OptionName.out) yet.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "421": {
                    "$ref": "#/components/responses/MisdirectedRequest"
                  },
                  "429": {
                    "$ref": "#/components/responses/TokenGuessesLimited"
                  }
                }
              }
            },
            "/api/v1/runs": {
              "get": {
                "summary": "The kept runs",
                "responses": {
                  "200": {
                    "description": "Every complete run kept in \#(OptionName.out), oldest first, with where its reports are served.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Runs"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "No history in \#(OptionName.out) yet.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "421": {
                    "$ref": "#/components/responses/MisdirectedRequest"
                  },
                  "429": {
                    "$ref": "#/components/responses/TokenGuessesLimited"
                  }
                }
              }
            },
            "/api/v1/history": {
              "get": {
                "summary": "The fleet's standing, or one domain's timeline",
                "description": "As `history \#(OptionName.json)` and `history DOMAIN \#(OptionName.json)` print them (docs/report-format.md, \"History\").",
                "parameters": [
                  {
                    "name": "domain",
                    "in": "query",
                    "required": false,
                    "description": "A domain: its verdict and codes run by run.",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Without domain: the trend and every domain's standing; with it: the domain's timeline.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "oneOf": [
                            {
                              "$ref": "#/components/schemas/Fleet"
                            },
                            {
                              "$ref": "#/components/schemas/Timeline"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "No history in \#(OptionName.out) yet, or no kept run audited the domain.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "421": {
                    "$ref": "#/components/responses/MisdirectedRequest"
                  },
                  "429": {
                    "$ref": "#/components/responses/TokenGuessesLimited"
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "summary": "Prometheus metrics",
                "description": "The newest run's families (aasa_audit_domains, aasa_audit_findings, aasa_audit_run_*) and the server's own (aasa_audit_serve_*), in the text exposition format 0.0.4.",
                "responses": {
                  "200": {
                    "description": "Metrics.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "421": {
                    "$ref": "#/components/responses/MisdirectedRequest"
                  },
                  "429": {
                    "$ref": "#/components/responses/TokenGuessesLimited"
                  }
                }
              }
            },
            "/healthz": {
              "get": {
                "summary": "Liveness",
                "security": [
                  {}
                ],
                "responses": {
                  "200": {
                    "description": "`ok`.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "const": "ok\n"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/openapi.json": {
              "get": {
                "summary": "This document",
                "description": "The API described in OpenAPI 3.1, as the repository keeps it in docs/openapi.json. Open like /healthz.",
                "security": [
                  {}
                ],
                "responses": {
                  "200": {
                    "description": "This document.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/badge/{name}": {
              "get": {
                "summary": "A domain's badge",
                "description": "The domain's verdict in the newest kept run this machine checked soundly, as an SVG (`DOMAIN.svg`) or as shields.io's endpoint JSON (`DOMAIN.json`). Open like the pages (no token); cached by clients for five minutes.",
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "name": "name",
                    "in": "path",
                    "required": true,
                    "description": "`DOMAIN.svg` or `DOMAIN.json`, e.g. `example.com.svg`.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[a-z0-9.-]{1,253}\\.(svg|json)$"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The verdict's badge.",
                    "content": {
                      "image/svg+xml": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ShieldsEndpoint"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "The domain was never audited soundly (a grey 'not audited' badge, so that a typo is seen), no history yet, or not a badge's name (Error).",
                    "content": {
                      "image/svg+xml": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "application/json": {
                        "schema": {
                          "oneOf": [
                            {
                              "$ref": "#/components/schemas/ShieldsEndpoint"
                            },
                            {
                              "$ref": "#/components/schemas/Error"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "421": {
                    "description": "The Host is not one this server answers to (see \#(OptionName.serverName)).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "repeatedValues": {
                "description": "A query parameter given once per value, at most 20 times.",
                "type": "array",
                "maxItems": 20,
                "items": {
                  "type": "string"
                }
              },
              "Error": {
                "type": "object",
                "required": [
                  "status",
                  "error"
                ],
                "additionalProperties": false,
                "properties": {
                  "status": {
                    "type": "integer",
                    "minimum": 400,
                    "maximum": 599
                  },
                  "error": {
                    "type": "string",
                    "description": "Why, in a sentence."
                  }
                }
              },
              "Domain": {
                "$ref": "report.schema.json#/$defs/domain"
              },
              "Report": {
                "$ref": "report.schema.json"
              },
              "Runs": {
                "type": "object",
                "required": [
                  "schemaVersion",
                  "runs"
                ],
                "additionalProperties": false,
                "properties": {
                  "schemaVersion": {
                    "const": 1
                  },
                  "runs": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "run",
                        "startedAt",
                        "verdicts",
                        "report",
                        "page"
                      ],
                      "additionalProperties": false,
                      "properties": {
                        "run": {
                          "type": "string",
                          "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{6}Z(-[0-9]+)?$"
                        },
                        "startedAt": {
                          "type": "string",
                          "format": "date-time"
                        },
                        "verdicts": {
                          "type": "object",
                          "required": [
                            "pass",
                            "warn",
                            "fail"
                          ],
                          "properties": {
                            "pass": {
                              "type": "integer",
                              "minimum": 0
                            },
                            "warn": {
                              "type": "integer",
                              "minimum": 0
                            },
                            "fail": {
                              "type": "integer",
                              "minimum": 0
                            }
                          }
                        },
                        "report": {
                          "type": "string",
                          "description": "This server's path of the run's report.json."
                        },
                        "page": {
                          "type": "string",
                          "description": "This server's path of the run's report.html."
                        }
                      }
                    }
                  }
                }
              },
              "Fleet": {
                "type": "object",
                "required": [
                  "schemaVersion",
                  "flapping",
                  "runs",
                  "domains"
                ],
                "properties": {
                  "schemaVersion": {
                    "const": 1
                  },
                  "runs": {
                    "type": "array"
                  },
                  "domains": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "domain",
                        "verdict",
                        "codes"
                      ]
                    }
                  }
                }
              },
              "Timeline": {
                "type": "object",
                "required": [
                  "schemaVersion",
                  "domain",
                  "runs"
                ],
                "properties": {
                  "schemaVersion": {
                    "const": 1
                  },
                  "domain": {
                    "type": "string"
                  },
                  "runs": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "run",
                        "startedAt"
                      ]
                    }
                  }
                }
              },
              "ShieldsEndpoint": {
                "type": "object",
                "description": "shields.io's endpoint badge: https://img.shields.io/endpoint?url=…",
                "required": [
                  "schemaVersion",
                  "label",
                  "message",
                  "color"
                ],
                "additionalProperties": false,
                "properties": {
                  "schemaVersion": {
                    "const": 1
                  },
                  "label": {
                    "const": "universal links"
                  },
                  "message": {
                    "enum": [
                      "pass",
                      "warn",
                      "fail",
                      "not audited"
                    ]
                  },
                  "color": {
                    "enum": [
                      "brightgreen",
                      "yellow",
                      "red",
                      "lightgrey"
                    ]
                  }
                }
              }
            },
            "responses": {
              "Unauthorized": {
                "description": "A token is set (\#(OptionName.tokenFile)) and the request does not carry it: Authorization: Bearer TOKEN.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                },
                "headers": {
                  "WWW-Authenticate": {
                    "schema": {
                      "const": "Bearer"
                    }
                  }
                }
              },
              "MisdirectedRequest": {
                "description": "The Host header names another server than this one (\#(OptionName.serverName); on a loopback address, the loopback names): against DNS rebinding.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "TokenGuessesLimited": {
                "description": "Too many requests without the right token from this client (10 a minute): answered unread.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                },
                "headers": {
                  "Retry-After": {
                    "$ref": "#/components/headers/RetryAfter"
                  }
                }
              }
            },
            "headers": {
              "RetryAfter": {
                "description": "Seconds to wait before asking again.",
                "schema": {
                  "type": "integer",
                  "minimum": 1
                }
              }
            },
            "securitySchemes": {
              "bearer": {
                "type": "http",
                "scheme": "bearer"
              }
            }
          }
        }
        """#
}
