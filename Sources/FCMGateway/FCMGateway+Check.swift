extension FCMGateway {
    /// The send path's target rule on its own, for checks that send nothing (`serve`'s console): the error a
    /// `messages:send` to `target` in `project` would get for its target now (a malformed or unknown token, a token
    /// of another project, an unregistered one), or nothing.
    package func checkTarget(_ target: FCMTarget, project: FCMProject) throws(FCMErrorResponse) {
        _ = try resolve(target, project: project)
    }
}
