// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pushcheck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pushcheck", targets: ["pushcheck"])
    ],
    targets: [
        // MARK: C libraries from Debian -dev packages (see `make deps`)
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNghttp2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
        // gzip for the HTML report's embedded data once it is large (browsers inflate it with DecompressionStream).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLinux"),
        // The allocator of the `pushcheck` binary (nothing calls it: it replaces malloc and free).
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),

        // MARK: pure value types and protocol logic
        .target(name: "PushModel", dependencies: ["CZlib"]),
        // Header fields, the one vocabulary of the HTTP server and the HTTP client (neither depends on the other).
        .target(name: "HTTPTypes"),
        .target(name: "YAMLSource", dependencies: ["CYAML", "PushModel"]),
        // libxml2's once-per-process set-up, shared by every module that parses with it.
        .target(name: "XMLSupport", dependencies: ["CXML2"]),

        // MARK: crypto and transports
        .target(name: "PushCrypto", dependencies: ["COpenSSL"]),
        .target(
            name: "HTTPServer",
            dependencies: ["HTTPTypes", "COpenSSL", "CNghttp2", "CLinux", "CHTTPParser", "PushCrypto"]),
        .target(name: "HTTPClient", dependencies: ["HTTPTypes", "CCurl", "PushCrypto", "PushModel"]),

        // MARK: gateways
        .target(
            name: "APNsGateway",
            dependencies: ["HTTPTypes", "PushModel", "PushCrypto", "HTTPServer", "YAMLSource", "CLinux"]),
        // FCM HTTP v1 (OAuth, send, topics) translated to APNs and pushed through an APNsGateway.
        .target(
            name: "FCMGateway",
            dependencies: ["HTTPTypes", "APNsGateway", "PushModel", "PushCrypto", "HTTPServer", "YAMLSource", "CLinux"]),
        .testTarget(
            name: "FCMGatewayTests",
            dependencies: [
                "HTTPTypes",
                "FCMGateway", "APNsGateway", "PushModel", "PushCrypto", "HTTPServer", "HTTPClient", "YAMLSource",
                "PushcheckTestSupport",
            ],
            exclude: ["Golden"]
        ),

        // MARK: simulated iPhone
        .target(name: "Provisioning", dependencies: ["PushModel", "PushCrypto"]),
        // `pushcheck doctor`'s findings engine over a team's real files; the checks it runs are Provisioning's.
        // Android files too: google-services.json, and AndroidManifest.xml through XMLSupport's libxml2 tree.
        .target(name: "Doctor", dependencies: ["Provisioning", "PushModel", "PushCrypto", "XMLSupport"]),
        .testTarget(
            name: "DoctorTests", dependencies: ["Doctor", "Provisioning", "PushModel"], exclude: ["Fixtures"]),
        .target(
            name: "DeviceSimulator",
            dependencies: ["HTTPTypes", "Provisioning", "PushModel", "HTTPClient", "CXML2", "XMLSupport", "YAMLSource"]),
        // Simulated devices hosted behind a gateway (serve, runner): deliveries in, token registrations out.
        // One world (`WorldHost`): gateways, devices, listeners, the control routes and the read API; `serve` and the runner.
        .target(
            name: "DeviceBridge",
            dependencies: [
                "HTTPTypes", "APNsGateway", "FCMGateway", "DeviceSimulator", "HTTPServer", "HTTPClient", "PushCrypto",
                "PushModel",
                "YAMLSource", "WebUI",
            ]
        ),
        .testTarget(
            name: "DeviceBridgeTests",
            dependencies: [
                "HTTPTypes",
                "DeviceBridge", "APNsGateway", "FCMGateway", "DeviceSimulator", "Provisioning", "PushModel",
                "PushCrypto", "HTTPServer",
                "HTTPClient", "YAMLSource", "PushcheckTestSupport",
            ]
        ),

        // MARK: scenarios: the suite language, the checks, the runner
        // Suite files: loading, decoding, the typed step/check/capture/variable tables.
        .target(
            name: "SuiteFormat",
            dependencies: ["DeviceBridge", "DeviceSimulator", "PushCrypto", "PushModel", "YAMLSource"]
        ),
        .testTarget(
            name: "SuiteFormatTests",
            dependencies: ["SuiteFormat", "DeviceSimulator", "PushModel", "YAMLSource", "PushcheckTestSupport"]
        ),
        // Checks over a plain `Observation`, contracts, snapshot files. Never DeviceBridge, HTTPClient or
        // HTTPServer (ModuleBoundaryTests holds it to that): its tests build observations by hand, no sockets.
        .target(
            name: "ScenarioChecks",
            dependencies: [
                "SuiteFormat", "APNsGateway", "FCMGateway", "DeviceSimulator", "Provisioning", "PushModel",
                "YAMLSource",
            ]
        ),
        .testTarget(
            name: "ScenarioChecksTests",
            dependencies: [
                "ScenarioChecks", "SuiteFormat", "APNsGateway", "DeviceSimulator", "Provisioning", "PushModel",
                "YAMLSource",
            ]
        ),
        // Running scenarios: executor, step runners, `ScenarioWorld`, commands.
        .target(
            name: "ScenarioRun",
            dependencies: [
                "HTTPTypes", "SuiteFormat", "ScenarioChecks", "CLinux", "APNsGateway", "FCMGateway", "DeviceBridge",
                "DeviceSimulator", "Provisioning", "HTTPClient", "HTTPServer", "PushCrypto", "PushModel", "YAMLSource",
            ]
        ),
        .testTarget(
            name: "ScenarioRunTests",
            dependencies: [
                "ScenarioRun", "ScenarioChecks", "SuiteFormat", "SuiteRunner", "APNsGateway", "FCMGateway",
                "DeviceBridge", "DeviceSimulator", "YAMLSource", "PushModel", "HTTPServer", "PushCrypto",
                "PushcheckTestSupport",
            ]
        ),

        // MARK: reports (JUnit XML, HTML, console output, shard merge)
        // The web drawing shared by the HTML report and serve's console (CSS/JS compiled in as strings; no I/O).
        .target(name: "WebUI"),
        .testTarget(name: "WebUITests", dependencies: ["WebUI"]),
        .target(name: "Reports", dependencies: ["CXML2", "XMLSupport", "PushModel", "WebUI"]),
        .testTarget(
            name: "ReportsTests", dependencies: ["Reports", "PushModel", "CXML2", "PushcheckTestSupport"],
            exclude: ["Golden", "Schema"]),

        // MARK: suite runner (discovery, selection, scheduling, fixture web server; JUnit via Reports)
        .target(
            name: "SuiteRunner",
            dependencies: [
                "HTTPTypes", "ScenarioRun", "ScenarioChecks", "SuiteFormat", "Reports", "PushModel", "HTTPServer",
                "PushCrypto",
                "YAMLSource",
            ]),
        .testTarget(
            name: "SuiteRunnerTests",
            dependencies: [
                "SuiteRunner", "SuiteFormat", "ScenarioRun", "ScenarioChecks", "Reports", "PushModel", "HTTPServer",
                "PushCrypto",
                "PushcheckTestSupport",
            ]
        ),

        // MARK: command line
        .target(
            name: "PushcheckCommands",
            dependencies: [
                "HTTPTypes",
                "CLinux", "APNsGateway", "FCMGateway", "HTTPServer", "HTTPClient", "PushCrypto", "PushModel",
                "YAMLSource", "SuiteFormat", "ScenarioChecks", "ScenarioRun", "SuiteRunner", "Reports", "DeviceBridge",
                "DeviceSimulator", "Provisioning", "Doctor",
            ]
        ),
        // The binary allocates through jemalloc, as nghttpd does: the gateway's logs free each entry 10,000 requests
        // after it was made, past glibc's per-thread cache of 7 blocks a size (README "Benchmarks").
        .executableTarget(name: "pushcheck", dependencies: ["PushcheckCommands", "CJemalloc"]),

        // MARK: tests
        // Shared helpers for test targets (external tools, temp dirs, child processes).
        .target(
            name: "PushcheckTestSupport", dependencies: ["PushCrypto", "PushModel"], path: "Tests/PushcheckTestSupport"),
        .testTarget(
            name: "PushcheckCommandsTests",
            dependencies: [
                "HTTPTypes",
                "PushcheckCommands", "PushcheckTestSupport", "APNsGateway", "HTTPClient", "HTTPServer", "PushCrypto",
                "PushModel",
            ]
        ),
        .testTarget(name: "PushCryptoTests", dependencies: ["PushCrypto", "PushcheckTestSupport"]),
        .testTarget(name: "ProvisioningTests", dependencies: ["Provisioning", "PushModel", "PushcheckTestSupport"]),
        .testTarget(
            name: "DeviceSimulatorTests",
            dependencies: [
                "HTTPTypes",
                "DeviceSimulator", "Provisioning", "PushModel", "HTTPServer", "HTTPClient", "PushCrypto", "YAMLSource",
                "PushcheckTestSupport",
            ]
        ),
        .testTarget(name: "YAMLSourceTests", dependencies: ["YAMLSource", "PushModel", "PushcheckTestSupport"]),
        .testTarget(name: "PushModelTests", dependencies: ["PushModel"]),
        .testTarget(name: "HTTPTypesTests", dependencies: ["HTTPTypes"]),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPTypes", "HTTPServer", "PushCrypto", "PushcheckTestSupport"]),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: ["HTTPTypes", "HTTPClient", "HTTPServer", "PushCrypto", "PushModel", "PushcheckTestSupport"]
        ),
        // MARK: fuzzing (`make fuzz`): the targets are a plain library, replayed by FuzzRegressionTests; the
        // libFuzzer driver is added below only when PUSHCHECK_FUZZ=1 (it needs -sanitize=fuzzer to link).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "APNsGateway", "FCMGateway", "HTTPServer", "Provisioning", "PushCrypto", "PushModel", "YAMLSource",
            ]),
        .testTarget(
            name: "FuzzRegressionTests", dependencies: ["FuzzTargets"], path: "Tests/Fuzz",
            exclude: ["corpus", "crashers"]),
        .testTarget(
            name: "APNsGatewayTests",
            dependencies: [
                "HTTPTypes",
                "APNsGateway", "PushModel", "PushCrypto", "HTTPServer", "HTTPClient", "PushcheckTestSupport",
                "YAMLSource",
            ],
            resources: []
        ),
    ],
    swiftLanguageModes: [.v6]
)

if Context.environment["PUSHCHECK_FUZZ"] == "1" {
    package.products.append(.executable(name: "pushcheck-fuzz", targets: ["PushcheckFuzz"]))
    package.targets.append(.executableTarget(name: "PushcheckFuzz", dependencies: ["FuzzTargets"]))
}
