package sim

func (t *trial) subprocess() { t.inProcess() }
