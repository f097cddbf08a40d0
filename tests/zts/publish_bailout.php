<?php
// One request of a reload generation whose attribute publication ends in a fatal error in a serialization
// hook (tests/zts/run, publication bailout check): published at the write in exact mode, at the end of the
// request in deferred mode, PublishBailoutHolder::$hook runs PublishBailoutHook::__serialize(), which
// fails. The publication held a clone of the runtime while the hook ran, which the bailout kept for the
// life of the process, and with it the generation's segment, mapped.
class PublishBailoutHook
{
    public function __serialize(): array
    {
        trigger_error('fatal error in a serialization hook', E_USER_ERROR);
    }
}

class PublishBailoutHolder
{
    #[OPcache\VolatileStatic]
    public static ?PublishBailoutHook $hook = null;
}

PublishBailoutHolder::$hook = new PublishBailoutHook();
